//! The view of `form-package snapshot`: the report of
//! `ops::snapshot` in any `--format` ([`super::report`]: every
//! package, every finding, and the set entry whose members carry the
//! status, the Snapshot digest and the roster), and in `human` after it
//! the roster of each compiled set as text.

use serde_json::Value;

use super::{escape, Format, Options, RunView};
use crate::report::Report;
use crate::summary::{SetStatus, SetSummary, Summary};

/// What `snapshot` prints, as (stdout, stderr).
pub fn output(report: &Report, format: Format, opts: &Options) -> (String, String) {
    let view = RunView::of(report);
    let (mut stdout, stderr) = super::report(format, &view, opts);
    if format == Format::Human {
        for e in &report.entries {
            if let Some(Summary::Set(set)) = &e.outcome().summary {
                stdout.push_str(&roster(&e.name().display().to_string(), set));
            }
        }
    }
    (stdout, stderr)
}

/// The human text of one set entry's summary: its status, digest and
/// roster (every identity escaped).
fn roster(name: &str, set: &SetSummary) -> String {
    let mut out = String::new();
    let lane = escape::text(&set.host_api);
    match &set.status {
        SetStatus::Compiled { digest, roster } => {
            let list = |k: &str| {
                roster
                    .get(k)
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default()
            };
            out.push_str(&format!(
                "{name}: compiled for {lane}\n  digest {}\n",
                escape::text(digest)
            ));
            let forms = list("forms");
            out.push_str(&format!("  {}\n", super::count(forms.len(), "form")));
            for f in &forms {
                out.push_str(&format!(
                    "    {} package {}\n",
                    form_text(&f["ref"]),
                    escape::text(f["packageDigest"].as_str().unwrap_or_default())
                ));
            }
            let interfaces = list("interfaces");
            out.push_str(&format!(
                "  {}\n",
                super::count(interfaces.len(), "interface")
            ));
            for i in &interfaces {
                out.push_str(&format!("    {}\n", contract_text(&i["ref"])));
            }
            let bindings = list("bindings");
            out.push_str(&format!("  {}\n", super::count(bindings.len(), "binding")));
            for b in &bindings {
                out.push_str(&format!(
                    "    {} -> {}\n",
                    contract_text(&b["ref"]),
                    contract_text(&b["targetInterface"])
                ));
            }
            let defaults = list("defaults");
            out.push_str(&format!("  {}\n", super::count(defaults.len(), "default")));
            for d in &defaults {
                out.push_str(&format!(
                    "    {}/{} = {}\n",
                    escape::text(d["group"].as_str().unwrap_or_default()),
                    escape::text(d["kind"].as_str().unwrap_or_default()),
                    form_text(&d["ref"])
                ));
            }
        }
        SetStatus::Failed { .. } => out.push_str(&format!(
            "{name}: not compiled for {lane}: the Core refuses the set (no Snapshot, no digest)\n"
        )),
        SetStatus::NotCompiled => out.push_str(&format!(
            "{name}: not compiled for {lane}: an input was refused before the compile\n"
        )),
    }
    out
}

/// `group/Kind@version schema=sha256:…`, escaped.
fn form_text(r: &Value) -> String {
    let f = |k: &str| r[k].as_str().unwrap_or_default();
    escape::text(&format!(
        "{}/{}@{} schema={}",
        f("apiVersion"),
        f("kind"),
        f("definitionVersion"),
        f("schemaDigest")
    ))
    .into_owned()
}

/// `apiVersion/name@version schema=sha256:…`, escaped.
fn contract_text(r: &Value) -> String {
    let f = |k: &str| r[k].as_str().unwrap_or_default();
    escape::text(&format!(
        "{}/{}@{} schema={}",
        f("apiVersion"),
        f("name"),
        f("version"),
        f("schemaDigest")
    ))
    .into_owned()
}

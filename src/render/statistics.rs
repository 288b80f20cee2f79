//! `verify --statistics`: the count of findings per code, the one
//! document on stdout when the flag is given, with the configuration file
//! in force and the run's summary (issue 37 items 5, 6):
//!
//! ```text
//! form-package: configuration form-package.toml
//! 3<TAB>FD019<TAB>missing-listed-file
//! form-package: 2 packages (1 verified, 1 failed), 3 errors, 0 warnings, 0 notes
//! ```
//!
//! or, with `--format json`, `{"configuration"?: FILE, "statistics":
//! [{"code", "name", "count"}…], "summary": {…}}` (the summary members
//! are the JSON report's).

use std::collections::BTreeMap;

use super::RunView;
use crate::diag::Diagnostic;

/// The statistics of `run` (see the module docs): human, or JSON.
pub fn render(run: &RunView<'_>, json: bool) -> String {
    let diags = run.findings().map(|(_, f)| f.diag);
    if json {
        let mut doc = serde_json::Map::new();
        if let Some(c) = &run.config {
            doc.insert("configuration".into(), c.display().to_string().into());
        }
        doc.insert("statistics".into(), rows(diags));
        doc.insert(
            "summary".into(),
            serde_json::json!({
                "packages": run.package_count(),
                "verified": run.verified(),
                "failed": run.failed,
                "errors": run.counts.errors,
                "warnings": run.counts.warnings,
            }),
        );
        return format!("{}\n", serde_json::Value::Object(doc));
    }
    let mut out = String::new();
    if let Some(c) = &run.config {
        out.push_str(&super::human::config_line(c));
    }
    out.push_str(&output(diags, false));
    out.push_str(&super::human::summary_line(run));
    out
}

/// The JSON rows of [`output`].
fn rows<'a>(diags: impl Iterator<Item = &'a Diagnostic>) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = tally(diags)
        .iter()
        .map(|(id, (name, n))| serde_json::json!({"code": id, "name": name, "count": n}))
        .collect();
    serde_json::Value::Array(rows)
}

/// The weighted count of findings per code id, with the code's name.
fn tally<'a>(
    diags: impl Iterator<Item = &'a Diagnostic>,
) -> BTreeMap<&'static str, (&'static str, usize)> {
    let mut counts: BTreeMap<&'static str, (&'static str, usize)> = BTreeMap::new();
    for d in diags {
        let info = d.code.info();
        counts.entry(info.id).or_insert((info.name, 0)).1 += d.weight();
    }
    counts
}

/// `--statistics`: the count of findings per code, in id order, as a table
/// (`human`) — `count  id  name` — or a JSON array of
/// `{"code", "name", "count"}` (`json`).
pub fn output<'a>(diags: impl Iterator<Item = &'a Diagnostic>, json: bool) -> String {
    if json {
        return format!("{}\n", rows(diags));
    }
    let counts = tally(diags);
    let w = counts
        .values()
        .map(|(_, n)| n.to_string().len())
        .max()
        .unwrap_or(1);
    let mut out = String::new();
    for (id, (name, n)) in &counts {
        out.push_str(&format!("{n:>w$}\t{id}\t{name}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Code;

    #[test]
    fn statistics_counts_per_code() {
        let d = [
            Diagnostic::new(Code::OpenObjectSchema, "a"),
            Diagnostic::new(Code::OpenObjectSchema, "b"),
            Diagnostic::new(Code::RootNotDirectory, "c"),
        ];
        assert_eq!(
            output(d.iter(), false),
            "1\tFD001\troot-not-directory\n2\tFD213\topen-object-schema\n"
        );
        assert_eq!(
            output(d.iter(), true),
            "[{\"code\":\"FD001\",\"name\":\"root-not-directory\",\"count\":1},{\"code\":\"FD213\",\"name\":\"open-object-schema\",\"count\":2}]\n"
        );
    }
}

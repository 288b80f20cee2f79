//! The views of `form-package relations` in every [`Format`]: the
//! relations table (`human`), the versioned `--format json` document, and
//! the derivation's findings as `verify` reports a package's (`sarif`,
//! `junit`, `github` closing with the human count line). The shapes, the
//! exit statuses and the refusals are documented in [`crate::ops::relations`],
//! whose [`run`](crate::ops::relations::run) returns the typed result this
//! module alone turns into text (issue 21 item 3).

use serde_json::{json, Value};

use crate::diag::Diagnostic;
use crate::render::count;
use crate::render::{self, escape, human, json as render_json, Format, RunView};
use crate::report::relations::{Definition, Derived, Refusal, Stopped, VERSION};
use crate::summary::{Instance, Relation};

/// The text of a `relations` run in `format`: (stdout, stderr).
///
/// A derivation is the table (`human`), the document (`json`) or the
/// findings as `verify` reports a package's (`sarif`, `junit`; `github`
/// closes with the human count line). A finding that stopped the command
/// (or a refused `--instance` document) is, in `human`, the finding on
/// stderr with nothing on stdout, and in a machine format a document of
/// that format carrying it (T2 F3). A refusal to run is one line on
/// stderr: `form-package: relations: <cause>`.
pub fn render(
    result: Result<Derived, Refusal>,
    format: Format,
    opts: &render::Options,
) -> (String, String) {
    match result {
        Ok(derived) if format == Format::Human && derived.instance_refused().is_some() => {
            let run = RunView::of(&derived.report);
            (String::new(), render_stop(&run, 1, opts.color))
        }
        Ok(derived) => (render_derived(&derived, format, opts), String::new()),
        Err(Refusal::Usage(msg)) => (String::new(), escape::line(&format!("relations: {msg}"))),
        Err(Refusal::Stopped(stopped)) if format == Format::Human => {
            let run = RunView::of(&stopped.report);
            (String::new(), render_stop(&run, 0, opts.color))
        }
        Err(Refusal::Stopped(stopped)) => (render_refusal(&stopped, format, opts), String::new()),
    }
}

/// The finding of the entry `entry` of `run` that stopped the command, for
/// stderr (coloured when `color`), located as
/// `<package>/<file>:line:column`.
fn render_stop(run: &RunView<'_>, entry: usize, color: bool) -> String {
    run.packages
        .get(entry)
        .into_iter()
        .flat_map(|p| {
            p.findings
                .iter()
                .map(move |f| human::render_located(f, Some(p.path()), color))
        })
        .collect()
}

/// A derivation in `format` (its `--instance` refusal, if any, is the
/// report's second entry, named after the FILE as given).
fn render_derived(derived: &Derived, format: Format, opts: &render::Options) -> String {
    let Derived {
        definition,
        relations,
        instances,
        report,
    } = derived;
    let run = RunView::of(report);
    match format {
        Format::Json => render_json_doc(definition, relations, &run, instances.as_deref()),
        Format::Human => render_human(
            definition,
            relations,
            &run,
            instances.as_deref(),
            opts.color,
        ),
        // The workflow commands as `verify` writes them, then the count
        // line of the human output (the package summary would say
        // "verified" of a package that was only derived from).
        Format::Github => format!(
            "{}{}",
            github_findings(&run, opts),
            escape::line(&count_line(
                relations.len(),
                &run,
                instances.as_deref().map(<[_]>::len)
            ))
        ),
        other => render::render(other, &run, opts),
    }
}

/// One line of the target-contract column: `formrefs: <apiVersion> <kind>
/// <definitionVersion>, …`, `interface: <name>@<version>`, or `-`; raw (the
/// package's text as it is): a printer escapes it ([`escape::text`]).
pub fn contract_text(r: &Relation) -> String {
    let str_member = |v: &Value, key: &str| -> String {
        v.get(key)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let mut parts = Vec::new();
    if let Some(refs) = &r.target_form_refs {
        let list: Vec<String> = refs
            .iter()
            .map(|f| {
                format!(
                    "{} {} {}",
                    str_member(f, "apiVersion"),
                    str_member(f, "kind"),
                    str_member(f, "definitionVersion")
                )
            })
            .collect();
        parts.push(format!("formrefs: {}", list.join(", ")));
    }
    if let Some(i) = &r.required_interface {
        parts.push(format!(
            "interface: {}@{}",
            str_member(i, "name"),
            str_member(i, "version")
        ));
    }
    if parts.is_empty() {
        "-".to_owned()
    } else {
        parts.join("; ")
    }
}

/// Left-aligned columns separated by two spaces; the last column is not
/// padded.
fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let header: Vec<String> = header.iter().map(|h| (*h).to_owned()).collect();
    for row in std::iter::once(&header).chain(rows) {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            if i + 1 == row.len() {
                line.push_str(cell);
            } else {
                let width = widths.get(i).copied().unwrap_or(0);
                line.push_str(&format!("{cell:<width$}  "));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The human rendering: header line, relation table, instance table (with
/// `--instance`), findings (located as `verify`'s; coloured when `color`), count line.
fn render_human(
    def: &Definition,
    relations: &[Relation],
    run: &RunView<'_>,
    instances: Option<&[Instance]>,
    color: bool,
) -> String {
    let diagnostics: Vec<&Diagnostic> = run.findings().map(|(_, f)| f.diag).collect();
    // Every cell and the header hold a stranger's text (names, keys,
    // consts): escaped before the widths are measured, so no control or
    // bidi character reaches the terminal and the columns stay aligned.
    let esc = |s: &str| escape::text(s).into_owned();
    let mut out = format!(
        "{} {} {} ({})\n\n",
        esc(&def.api_version),
        esc(&def.kind),
        esc(&def.definition_version),
        esc(&def.name)
    );
    if relations.is_empty() {
        out.push_str("no relations\n");
    } else {
        let rows: Vec<Vec<String>> = relations
            .iter()
            .map(|r| {
                vec![
                    esc(&r.pointer),
                    esc(&format!("{}/{}", r.target_api_version, r.target_kind)),
                    if r.binding.is_empty() {
                        "-".to_owned()
                    } else {
                        esc(&r.binding)
                    },
                    if r.required { "yes" } else { "no" }.to_owned(),
                    esc(&contract_text(r)),
                ]
            })
            .collect();
        out.push_str(&table(
            &[
                "POINTER",
                "TARGET",
                "BINDING",
                "REQUIRED",
                "TARGET CONTRACT",
            ],
            &rows,
        ));
    }
    if let Some(instances) = instances {
        out.push('\n');
        if instances.is_empty() {
            out.push_str("no instances\n");
        } else {
            let rows: Vec<Vec<String>> = instances
                .iter()
                .map(|i| vec![esc(&i.pointer), esc(&i.name), esc(&i.relation)])
                .collect();
            out.push_str(&table(&["INSTANCE", "NAME", "RELATION"], &rows));
        }
    }
    if !diagnostics.is_empty() {
        out.push('\n');
    }
    out.push_str(&human::render_run(
        run,
        &render::Options {
            quiet: true,
            color,
            ..Default::default()
        },
    ));
    out.push('\n');
    out.push_str(&count_line(relations.len(), run, instances.map(<[_]>::len)));
    out.push('\n');
    out
}

/// The closing count of the human and `github` outputs: `8 relations, 1
/// warning, 0 notes` (`, 2 instances` with `--instance`). `relations`
/// derives, it does not verify: no "verified" count.
fn count_line(relations: usize, run: &RunView<'_>, instances: Option<usize>) -> String {
    // Errors only when some finding is one (a bad `--instance` document in
    // a machine format); a derivation itself has warnings and notes.
    let errors = match run.counts.errors {
        0 => String::new(),
        n => format!("{}, ", count(n, "error")),
    };
    let mut line = format!(
        "{}, {errors}{}, {}",
        count(relations, "relation"),
        count(run.counts.warnings, "warning"),
        count(run.counts.notes, "note")
    );
    if let Some(n) = instances {
        line.push_str(&format!(", {}", count(n, "instance")));
    }
    line
}

/// The `--format json` document (shape in the module doc).
fn render_json_doc(
    def: &Definition,
    relations: &[Relation],
    run: &RunView<'_>,
    instances: Option<&[Instance]>,
) -> String {
    let mut doc = json!({
        "version": VERSION,
        "definition": {
            "apiVersion": def.api_version,
            "kind": def.kind,
            "definitionVersion": def.definition_version,
        },
        "relations": relations,
        "diagnostics": run
            .findings()
            .map(|(_, f)| render_json::diagnostic_value(f))
            .collect::<Vec<_>>(),
    });
    if let (Some(instances), Some(o)) = (instances, doc.as_object_mut()) {
        o.insert("instances".to_owned(), json!(instances));
    }
    let mut text =
        serde_json::to_string_pretty(&doc).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    text.push('\n');
    text
}

/// The findings of `run` as `verify --format github` writes them, without
/// its package summary line (`relations` closes with its own count line).
fn github_findings(run: &RunView<'_>, opts: &render::Options) -> String {
    render::render(
        Format::Github,
        run,
        &render::Options {
            quiet: true,
            ..opts.clone()
        },
    )
}

/// The document of a machine `format` for a finding that stopped the
/// command (T2 F3): the finding as `verify` reports a failing package
/// (PATH, or the `--instance` FILE), so stdout and `--output-file` carry a
/// document of the format asked for. `json` is the usual document with no
/// relations (definition members from the definition when it parsed);
/// `github` closes with a count line, as a derivation does.
fn render_refusal(stopped: &Stopped, format: Format, opts: &render::Options) -> String {
    let definition = stopped.definition.clone().unwrap_or_default();
    let run = RunView::of(&stopped.report);
    match format {
        Format::Json => render_json_doc(&definition, &[], &run, None),
        Format::Github => format!(
            "{}{}",
            github_findings(&run, opts),
            escape::line(&format!(
                "no relations derived, {}, {}, {}",
                count(run.counts.errors, "error"),
                count(run.counts.warnings, "warning"),
                count(run.counts.notes, "note")
            ))
        ),
        other => render::render(other, &run, opts),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::relations::{exit_code, run};
    use std::path::Path;

    fn worker_version() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/packages/v1beta1/worker-version-0.1.0-54e6d25738e7")
    }

    #[test]
    fn contract_text_names_formrefs_interfaces_or_dash() {
        let mut r = Relation {
            pointer: "/a".into(),
            target_api_version: "x/v1".into(),
            target_kind: "K".into(),
            binding: String::new(),
            required: true,
            target_form_refs: Some(vec![
                json!({"apiVersion":"x/v1","kind":"K","definitionVersion":"0.1.0","schemaDigest":"sha256:00"}),
            ]),
            required_interface: None,
        };
        assert_eq!(contract_text(&r), "formrefs: x/v1 K 0.1.0");
        r.target_form_refs = None;
        assert_eq!(contract_text(&r), "-");
        r.required_interface = Some(json!({"name":"edge.kv","version":"1.0.0"}));
        assert_eq!(contract_text(&r), "interface: edge.kv@1.0.0");
    }

    #[test]
    fn table_pads_all_but_last_column() {
        let t = table(&["A", "BB"], &[vec!["xyz".into(), "1".into()]]);
        assert_eq!(t, "A    BB\nxyz  1\n");
    }

    /// `relations PATH --format FORMAT` as the command line runs it:
    /// (stdout, stderr, exit status).
    fn run_as_cli(path: &Path, format: Format) -> (String, String, u8) {
        let result = run(path, None);
        let code = exit_code(&result);
        let (stdout, stderr) = render(result, format, &render::Options::here());
        (stdout, stderr, code)
    }

    #[test]
    fn every_format_goes_through_the_front_end() {
        for format in [Format::Sarif, Format::Github, Format::Junit] {
            let (stdout, stderr, code) = run_as_cli(&worker_version(), format);
            assert_eq!(code, 0, "{format:?}: {stderr}");
            assert!(!stdout.is_empty(), "{format:?}");
        }
        let sarif: Value =
            serde_json::from_str(&run_as_cli(&worker_version(), Format::Sarif).0).unwrap();
        assert_eq!(sarif["version"], "2.1.0");
        assert_eq!(sarif["runs"][0]["results"], json!([]));
        let junit = run_as_cli(&worker_version(), Format::Junit).0;
        assert_eq!(junit.matches("<testcase ").count(), 1, "{junit}");
        // `relations` derives, it does not verify: its github summary is the
        // count line of the human output, never "1 verified".
        let github = run_as_cli(&worker_version(), Format::Github).0;
        assert_eq!(github, "form-package: 8 relations, 0 warnings, 0 notes\n");
    }

    #[test]
    fn missing_path_is_status_2_and_bad_definition_is_status_1() {
        let (_, _, code) = run_as_cli(Path::new("/nonexistent/form-package-x"), Format::Json);
        assert_eq!(code, 2);
        let tmp = std::env::temp_dir().join(format!("relcmd-{}.json", std::process::id()));
        std::fs::write(&tmp, b"{\"a\":1,\"a\":2}").unwrap();
        let (stdout, stderr, code) = run_as_cli(&tmp, Format::Human);
        std::fs::remove_file(&tmp).unwrap();
        assert_eq!(code, 1);
        assert!(stderr.contains("FD0"), "{stderr}");
        assert!(stderr.contains("duplicate object name"), "{stderr}");
        assert!(stdout.is_empty());
    }

    #[test]
    fn json_document_has_the_documented_members() {
        let (stdout, stderr, code) = run_as_cli(&worker_version(), Format::Json);
        assert_eq!(code, 0, "{stderr}");
        let v: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(v["version"], 1);
        assert_eq!(v["definition"]["kind"], "WorkerVersion");
        assert_eq!(v["relations"].as_array().unwrap().len(), 8);
        assert_eq!(v["diagnostics"], json!([]));
        assert!(v.get("instances").is_none());
    }
}

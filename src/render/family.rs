//! Renderers of a family [`Report`]: the human report, the JSON document
//! (`schemas/form-package-family-v1.schema.json`), a Graphviz digraph and a
//! Mermaid flowchart. Forms are nodes grouped by family (`apiVersion`),
//! relations are edges labelled with their pointer and contract, failing
//! edges are red and unchecked/external ones dashed. Every format carries
//! every finding with its source, relation, target, step and
//! `file:line:column` locations (DOT and Mermaid as comments and edge
//! tooltips). Pure: returns text; [`crate::ops::family::run`] returns the
//! checked report as the report model's
//! [`crate::report::family::FamilyReport`] ([`crate::ops::family::view`]),
//! [`output`] turns it into the chosen format's text and `cli/family.rs`
//! builds the process output (issue 21 item 3).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{json, Value};

use crate::render::{escape, Format};
use crate::report::family::{
    ContractRef, Edge, EdgeStatus, EdgeTarget, FamilyReport as Report, Finding, PackageFinding,
};

/// What `family --format FORMAT` prints on stdout for `report`: [`human`],
/// [`json_text`], [`dot`] or [`mermaid`] (a format `family` does not take
/// prints as `human`). The exit status is the report's
/// ([`Report::exit_code`]), never this view's.
pub fn output(report: &Report, format: Format) -> String {
    match format {
        Format::Human | Format::Sarif | Format::Github | Format::Junit | Format::Concise => {
            human(report)
        }
        Format::Json => json_text(report),
        Format::Dot => dot(report),
        Format::Mermaid => mermaid(report),
    }
}

/// Version of the JSON document (`version` member).
pub const JSON_VERSION: u64 = 1;

fn node_id(t: EdgeTarget) -> String {
    match t {
        EdgeTarget::Form(i) => format!("n{i}"),
        EdgeTarget::Missing(i) => format!("m{i}"),
    }
}

/// One line per finding: `FD714 error rule8-step5 <message> | source … |
/// relation … -> target | at file:l:c (pointer) | contract file:l:c (pointer)`.
pub fn finding_line(f: &Finding) -> String {
    let d = &f.diagnostic;
    let mut s = format!(
        "{} {} {} {}",
        d.code.info().id,
        d.severity.as_str(),
        f.step.name(),
        d.message
    );
    for (label, value) in finding_parts(f) {
        let _ = write!(s, " | {label} {value}");
    }
    s
}

/// The parts of a finding after its message, each as (label, text), in
/// the order every layout prints them: `source`, `relation r -> t` (or
/// `target t` without a relation), `at`, `contract`.
fn finding_parts(f: &Finding) -> Vec<(&'static str, String)> {
    let mut parts = Vec::new();
    if let Some(src) = &f.source {
        parts.push(("source", src.clone()));
    }
    match (&f.relation, &f.target) {
        (Some(r), Some(t)) => parts.push(("relation", format!("{r} -> {t}"))),
        (None, Some(t)) => parts.push(("target", t.clone())),
        _ => {}
    }
    if let Some(l) = f.location() {
        parts.push(("at", l.to_string()));
    }
    if let Some(c) = f.contract() {
        parts.push(("contract", c.to_string()));
    }
    parts
}

fn form_name(report: &Report, t: EdgeTarget) -> String {
    match t {
        EdgeTarget::Form(i) => report
            .packages
            .get(i)
            .map(|p| match &p.form {
                Some(f) => f.kind.clone(),
                None => p.path.clone(),
            })
            .unwrap_or_default(),
        EdgeTarget::Missing(i) => report
            .missing
            .get(i)
            .map(|(_, k)| format!("{k} (not loaded)"))
            .unwrap_or_default(),
    }
}

fn status_word(s: EdgeStatus) -> &'static str {
    match s {
        EdgeStatus::Ok => "ok",
        EdgeStatus::Failed => "FAILED",
        EdgeStatus::Unchecked => "unchecked",
        EdgeStatus::External => "external",
    }
}

/// One package finding as the human report lists it:
/// `error[FD213] <package>/<file>:line:column (pointer): message`, the
/// file, pointer and message escaped as `verify` prints them
/// ([`escape::text`], [`escape::message`]).
fn verify_line(v: &PackageFinding) -> String {
    let d = &v.diagnostic;
    format!(
        "{}[{}] {}:{}:{}{}: {}",
        d.severity.as_str(),
        d.code.info().id,
        escape::text(v.file()),
        v.position.line,
        v.position.column,
        if d.pointer.is_root() {
            String::new()
        } else {
            format!(" ({})", escape::text(d.pointer.as_str()))
        },
        escape::message(&d.message)
    )
}

/// The directories the walk skipped by a rule, one `<prefix> skipped
/// directory <path> (<rule>): not loaded` line each, then the packages' own
/// findings (what `verify` found in each) as comment lines of a graph
/// format: `<prefix> package <path>: FAIL`, then one `<prefix> verify:
/// <finding>` line each, newlines of package text removed (a comment ends
/// at the line's end).
fn package_comments(report: &Report, prefix: &str) -> String {
    let mut out = String::new();
    // The directories the walk skipped by a rule: nothing under them was loaded.
    for (dir, rule) in &report.skipped {
        let _ = writeln!(
            out,
            "  {prefix} skipped directory {} ({rule}): not loaded",
            comment_safe(&dir.display().to_string())
        );
    }
    for p in report.packages.iter().filter(|p| !p.findings.is_empty()) {
        let verdict = if p.failed { "FAIL" } else { "ok (warnings)" };
        let _ = writeln!(
            out,
            "  {prefix} package {}: {verdict}",
            comment_safe(&p.path)
        );
        for v in &p.findings {
            let _ = writeln!(out, "  {prefix} verify: {}", comment_safe(&verify_line(v)));
        }
    }
    out
}

/// The human report.
pub fn human(report: &Report) -> String {
    let mut out = String::new();
    let fam = report;
    let forms = fam.packages.iter().filter(|p| p.form.is_some()).count();
    let families: std::collections::BTreeSet<&str> = fam
        .packages
        .iter()
        .filter_map(|p| p.form.as_ref().map(|f| f.api_version.as_str()))
        .collect();
    let nb = fam.contracts.iter().filter(|c| c.kind == "binding").count();
    let _ = writeln!(
        out,
        "form-package family: {forms} Forms in {} {} ({}), {} contracts ({nb} Binding, {} Interface), {} candidate sets, {} relation edges",
        families.len(),
        if families.len() == 1 { "family" } else { "families" },
        escape::text(&families.iter().copied().collect::<Vec<_>>().join(", ")),
        fam.contracts.len(),
        fam.contracts.len() - nb,
        fam.candidate_sets.len(),
        report.edges.len()
    );
    let failed: Vec<_> = fam.packages.iter().filter(|p| p.failed).collect();
    let _ = writeln!(
        out,
        "packages: {} verified, {} failed",
        fam.packages.len() - failed.len(),
        failed.len()
    );
    for p in fam.packages.iter().filter(|p| !p.findings.is_empty()) {
        let _ = writeln!(
            out,
            "{}: {}",
            escape::text(&p.path),
            if p.failed { "FAIL" } else { "ok (warnings)" }
        );
        for v in &p.findings {
            let _ = writeln!(out, "  {}", verify_line(v));
        }
    }
    out.push('\n');
    if report.edges.is_empty() {
        out.push_str("no relations\n");
    } else {
        let rows: Vec<[String; 5]> = report
            .edges
            .iter()
            .map(|e| {
                // Package text (kinds, paths, pointers, contract names):
                // escaped before the widths are measured.
                let esc = |s: &str| escape::text(s).into_owned();
                let contract = if e.binding.is_empty() {
                    esc(&e.contract)
                } else {
                    esc(&format!("binding {}; {}", e.binding, e.contract))
                };
                let status = match e.step {
                    Some(s) if e.status == EdgeStatus::Failed => format!("FAILED {}", s.name()),
                    _ => status_word(e.status).to_owned(),
                };
                [
                    esc(&form_name(report, EdgeTarget::Form(e.from))),
                    esc(&e.pointer),
                    esc(&form_name(report, e.to)),
                    contract,
                    status,
                ]
            })
            .collect();
        let header = ["SOURCE", "POINTER", "TARGET", "CONTRACT", "STATUS"];
        let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
        for r in &rows {
            for (w, c) in widths.iter_mut().zip(r.iter()) {
                *w = (*w).max(c.chars().count());
            }
        }
        let line = |cells: Vec<&str>| {
            let mut l = String::new();
            let n = cells.len();
            for (i, (c, w)) in cells.iter().zip(widths.iter()).enumerate() {
                l.push_str(c);
                if i + 1 < n {
                    l.push_str(&" ".repeat(w.saturating_sub(c.chars().count()) + 2));
                }
            }
            l.push('\n');
            l
        };
        out.push_str(&line(header.to_vec()));
        for r in &rows {
            out.push_str(&line(r.iter().map(String::as_str).collect()));
        }
    }
    if !report.findings.is_empty() {
        out.push('\n');
    }
    for f in &report.findings {
        let d = &f.diagnostic;
        let _ = writeln!(
            out,
            "{}[{}] {}: {}",
            d.severity.as_str(),
            d.code.info().id,
            f.step.name(),
            escape::message(&d.message)
        );
        for (label, value) in finding_parts(f) {
            let _ = writeln!(out, "  {:<10}{}", format!("{label}:"), escape::text(&value));
        }
        for n in &d.notes {
            let _ = writeln!(out, "  note: {}", escape::message(n));
        }
        if let Some(h) = &d.help {
            let _ = writeln!(out, "  help: {}", escape::message(h));
        }
    }
    // Package findings included: they are printed above and fail the family.
    let (e, w, n) = report.counts;
    let _ = writeln!(
        out,
        "\nfamily: {e} {}, {w} {}, {n} {}; {}",
        if e == 1 { "error" } else { "errors" },
        if w == 1 { "warning" } else { "warnings" },
        if n == 1 { "note" } else { "notes" },
        if report.fails { "FAIL" } else { "ok" }
    );
    // Nothing skipped in silence: each directory a rule skipped, listed.
    out.push_str(&super::skipped_text(&report.skipped, true));
    out
}

/// The JSON document (see `schemas/form-package-family-v1.schema.json`).
pub fn json(report: &Report) -> Value {
    let fam = report;
    let mut nodes = Vec::new();
    for (i, p) in fam.packages.iter().enumerate() {
        let diagnostics: Vec<Value> = p
            .findings
            .iter()
            .map(|v| serde_json::to_value(v).unwrap_or(Value::Null))
            .collect();
        let mut node = json!({
            "id": node_id(EdgeTarget::Form(i)),
            "loaded": p.form.is_some(),
            "package": p.path,
            "verified": !p.failed,
            "errors": p.errors,
            "warnings": p.warnings,
            "diagnostics": diagnostics,
        });
        if let (Some(f), Some(o)) = (&p.form, node.as_object_mut()) {
            let refs = |list: &[ContractRef]| -> Vec<Value> {
                list.iter()
                    .map(|r| json!({"apiVersion": r.api_version, "name": r.name, "version": r.version, "schemaDigest": r.schema_digest}))
                    .collect()
            };
            o.insert("family".into(), json!(f.api_version));
            o.insert("apiVersion".into(), json!(f.api_version));
            o.insert("kind".into(), json!(f.kind));
            o.insert("definitionVersion".into(), json!(f.definition_version));
            o.insert("schemaDigest".into(), json!(f.schema_digest));
            o.insert("role".into(), json!(f.role));
            o.insert("definition".into(), json!(f.definition));
            o.insert("providedInterfaces".into(), json!(refs(&f.provided)));
            o.insert("acceptedBindings".into(), json!(refs(&f.accepted)));
        }
        nodes.push(node);
    }
    for (i, (api, kind)) in report.missing.iter().enumerate() {
        nodes.push(json!({
            "id": node_id(EdgeTarget::Missing(i)),
            "loaded": false,
            "family": api,
            "apiVersion": api,
            "kind": kind,
        }));
    }
    let edges: Vec<Value> = report
        .edges
        .iter()
        .map(|e| {
            json!({
                "from": node_id(EdgeTarget::Form(e.from)),
                "to": node_id(e.to),
                "pointer": e.pointer,
                "binding": e.binding,
                "contract": e.contract,
                "required": e.required,
                "status": e.status,
                "step": e.step.map(|s| s.name()),
                "code": e.code.map(|c| c.info().id),
            })
        })
        .collect();
    let contracts: Vec<Value> = fam
        .contracts
        .iter()
        .map(|c| {
            json!({
                "file": c.file,
                "kind": c.kind,
                "apiVersion": c.identity.api_version,
                "name": c.identity.name,
                "version": c.identity.version,
                "schemaDigest": c.identity.schema_digest,
                "valid": c.valid,
            })
        })
        .collect();
    let candidate_sets: Vec<Value> = fam
        .candidate_sets
        .iter()
        .map(|s| json!({"file": s.file, "kind": s.kind}))
        .collect();
    // Package findings included, as in the human summary line (T2 F6).
    let (errors, warnings, notes) = report.counts;
    let failed = fam.packages.iter().filter(|p| p.failed).count();
    let mut doc = json!({
        "version": JSON_VERSION,
        "tool": {"name": "form-package", "version": env!("CARGO_PKG_VERSION")},
        "options": {"partial": report.options.partial, "allowExternal": report.options.allow_external},
        "nodes": nodes,
        "edges": edges,
        "contracts": contracts,
        "candidateSets": candidate_sets,
        "findings": report.findings,
        "summary": {
            "packages": fam.packages.len(),
            "verified": fam.packages.len() - failed,
            "failed": failed,
            "forms": fam.packages.iter().filter(|p| p.form.is_some()).count(),
            "contracts": fam.contracts.len(),
            "edges": report.edges.len(),
            "errors": errors,
            "warnings": warnings,
            "notes": notes,
            "ok": !report.fails,
        }
    });
    // The walk's flags, when given (`--no-ignore`, `--exclude`).
    let walk = &report.options;
    if let Some(o) = doc.get_mut("options").and_then(Value::as_object_mut) {
        if walk.no_ignore {
            o.insert("noIgnore".into(), json!(true));
        }
        if !walk.exclude.is_empty() {
            o.insert("exclude".into(), json!(walk.exclude));
        }
    }
    if let (false, Some(o)) = (fam.skipped.is_empty(), doc.as_object_mut()) {
        o.insert(
            "skippedDirectories".into(),
            super::skipped_value(&fam.skipped),
        );
    }
    doc
}

/// [`json()`] as pretty text with a trailing newline.
pub fn json_text(report: &Report) -> String {
    let mut s = serde_json::to_string_pretty(&json(report)).unwrap_or_default();
    s.push('\n');
    s
}

/// Families (apiVersion) → node ids and labels, in first-seen order.
fn groups(report: &Report) -> BTreeMap<String, Vec<(String, String, bool)>> {
    let mut g: BTreeMap<String, Vec<(String, String, bool)>> = BTreeMap::new();
    for (i, p) in report.packages.iter().enumerate() {
        let (family, label) = match &p.form {
            Some(f) => (
                f.api_version.clone(),
                format!(
                    "{}\n{}{}",
                    f.kind,
                    f.definition_version,
                    f.role
                        .as_deref()
                        .map(|r| format!(" · {r}"))
                        .unwrap_or_default()
                ),
            ),
            None => ("(Form not loaded)".to_owned(), p.path.clone()),
        };
        g.entry(family)
            .or_default()
            .push((node_id(EdgeTarget::Form(i)), label, p.failed));
    }
    g
}

/// Package text inside a label: each line escaped ([`escape::text`]: C0
/// and C1 controls, bidi overrides, U+2028 and the rest of Go's
/// non-printables), the line breaks kept (a label's own lines).
fn visible(s: &str) -> String {
    s.split('\n')
        .map(escape::text)
        .collect::<Vec<_>>()
        .join("\n")
}

fn dot_str(s: &str) -> String {
    let escaped = visible(s).replace('\\', "\\\\").replace('"', "\\\"");
    format!("\"{}\"", escaped.replace('\n', "\\n"))
}

/// A comment's text: on one line (line breaks become spaces), every other
/// character [`escape::text`] escapes escaped.
fn comment_safe(s: &str) -> String {
    escape::text(&s.replace(['\n', '\r'], " ")).into_owned()
}

const RED: &str = "#c62828";

fn edge_text(e: &Edge) -> String {
    if e.binding.is_empty() {
        format!("{}\n{}", e.pointer, e.contract)
    } else {
        format!("{}\nbinding {}\n{}", e.pointer, e.binding, e.contract)
    }
}

/// Findings that belong to an edge: same source package and relation pointer.
fn edge_findings<'a>(report: &'a Report, e: &Edge) -> Vec<&'a Finding> {
    let path = report.packages.get(e.from).map(|p| p.path.as_str());
    report
        .findings
        .iter()
        .filter(|f| f.source.as_deref() == path && f.relation.as_deref() == Some(&e.pointer))
        .collect()
}

/// A Graphviz digraph: the family graph's one traversal spelled in DOT.
pub fn dot(report: &Report) -> String {
    graph::<Dot>(report)
}

/// A Mermaid flowchart: the same traversal as [`dot`] spelled in Mermaid,
/// the same nodes, edges and comments.
pub fn mermaid(report: &Report) -> String {
    graph::<Mermaid>(report)
}

/// How a node is drawn: a loaded package that verifies, one that fails
/// `verify` (its label ends `verify: FAIL`, red), or a target kind that is
/// not loaded (dashed).
#[derive(Clone, Copy, PartialEq, Eq)]
enum NodeStyle {
    Plain,
    Failed,
    Missing,
}

/// One relation as a graph draws it: node ids, its (unquoted) label, its
/// status and the lines of its findings.
struct GraphEdge {
    from: String,
    to: String,
    text: String,
    status: EdgeStatus,
    tips: Vec<String>,
}

/// The spellings of one graph language; [`graph`] is the one traversal
/// that both languages share. Each method appends whole lines to `out`.
trait Syntax {
    /// The first lines (the graph's opening and default attributes).
    const HEADER: &'static str;
    /// What starts a comment line.
    const COMMENT: &'static str;
    /// The line that opens the group of the not-loaded target kinds.
    const OPEN_MISSING: &'static str;
    /// The line that closes a group.
    const CLOSE_GROUP: &'static str;
    /// The line that opens family group number `c`, titled `family`.
    fn open_group(out: &mut String, c: usize, family: &str);
    /// One node with its (unquoted) label.
    fn node(out: &mut String, id: &str, label: &str, style: NodeStyle);
    /// One edge (its findings' lines a tooltip where the language has one).
    fn edge(out: &mut String, e: &GraphEdge);
    /// What follows the edges (the closing brace, or styles by index).
    fn footer(out: &mut String, report: &Report);
}

/// Graphviz DOT.
struct Dot;

impl Syntax for Dot {
    const HEADER: &'static str = "digraph family {\n  rankdir=LR;\n  node [shape=box, style=\"rounded,filled\", fillcolor=\"#f5f5f5\", fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n";
    const COMMENT: &'static str = "//";
    const OPEN_MISSING: &'static str =
        "  subgraph cluster_missing {\n    label=\"not loaded\";\n    style=dashed;\n";
    const CLOSE_GROUP: &'static str = "  }\n";

    fn open_group(out: &mut String, c: usize, family: &str) {
        let _ = writeln!(
            out,
            "  subgraph cluster_{c} {{\n    label={};",
            dot_str(family)
        );
    }

    fn node(out: &mut String, id: &str, label: &str, style: NodeStyle) {
        let extra = match style {
            NodeStyle::Plain => String::new(),
            NodeStyle::Failed => format!(", color=\"{RED}\", penwidth=2"),
            NodeStyle::Missing => ", style=dashed".to_owned(),
        };
        let _ = writeln!(out, "    {id} [label={}{extra}];", dot_str(label));
    }

    fn edge(out: &mut String, e: &GraphEdge) {
        let mut attrs = vec![format!("label={}", dot_str(&e.text))];
        match e.status {
            EdgeStatus::Failed => {
                attrs.push(format!("color=\"{RED}\", fontcolor=\"{RED}\", penwidth=2"));
            }
            EdgeStatus::Unchecked | EdgeStatus::External => attrs.push("style=dashed".to_owned()),
            EdgeStatus::Ok => {}
        }
        if !e.tips.is_empty() {
            attrs.push(format!("tooltip={}", dot_str(&e.tips.join("\n"))));
        }
        let _ = writeln!(out, "  {} -> {} [{}];", e.from, e.to, attrs.join(", "));
    }

    fn footer(out: &mut String, _report: &Report) {
        out.push_str("}\n");
    }
}

/// A Mermaid flowchart.
struct Mermaid;

impl Syntax for Mermaid {
    const HEADER: &'static str = "flowchart LR\n";
    const COMMENT: &'static str = "%%";
    const OPEN_MISSING: &'static str = "  subgraph missing[\"not loaded\"]\n";
    const CLOSE_GROUP: &'static str = "  end\n";

    fn open_group(out: &mut String, c: usize, family: &str) {
        let _ = writeln!(out, "  subgraph family{c}[{}]", mermaid_str(family));
    }

    fn node(out: &mut String, id: &str, label: &str, _style: NodeStyle) {
        let _ = writeln!(out, "    {id}[{}]", mermaid_str(label));
    }

    fn edge(out: &mut String, e: &GraphEdge) {
        let arrow = match e.status {
            EdgeStatus::Unchecked | EdgeStatus::External => "-.->",
            _ => "-->",
        };
        let _ = writeln!(
            out,
            "  {} {arrow}|{}| {}",
            e.from,
            mermaid_str(&e.text),
            e.to
        );
    }

    /// Mermaid styles edges by their index and nodes by their id after
    /// the graph: failing edges and failing packages red.
    fn footer(out: &mut String, report: &Report) {
        let red: Vec<String> = (report.edges.iter().enumerate())
            .filter(|(_, e)| e.status == EdgeStatus::Failed)
            .map(|(i, _)| i.to_string())
            .collect();
        if !red.is_empty() {
            let _ = writeln!(
                out,
                "  linkStyle {} stroke:{RED},stroke-width:3px,color:{RED}",
                red.join(",")
            );
        }
        for (i, p) in report.packages.iter().enumerate() {
            if p.failed {
                let _ = writeln!(
                    out,
                    "  style {} stroke:{RED},stroke-width:3px",
                    node_id(EdgeTarget::Form(i))
                );
            }
        }
    }
}

/// The one traversal of a family graph, spelled in `S`: comments with the
/// packages' own findings and every family finding, a group per family
/// with its Forms, a group of the target kinds that are not loaded, then
/// every relation as an edge.
fn graph<S: Syntax>(report: &Report) -> String {
    let mut out = String::from(S::HEADER);
    out.push_str(&package_comments(report, S::COMMENT));
    for f in &report.findings {
        let _ = writeln!(
            out,
            "  {} finding: {}",
            S::COMMENT,
            comment_safe(&finding_line(f))
        );
    }
    for (c, (family, nodes)) in groups(report).iter().enumerate() {
        S::open_group(&mut out, c, family);
        for (id, label, failed) in nodes {
            if *failed {
                S::node(
                    &mut out,
                    id,
                    &format!("{label}\nverify: FAIL"),
                    NodeStyle::Failed,
                );
            } else {
                S::node(&mut out, id, label, NodeStyle::Plain);
            }
        }
        out.push_str(S::CLOSE_GROUP);
    }
    if !report.missing.is_empty() {
        out.push_str(S::OPEN_MISSING);
        for (i, (api, kind)) in report.missing.iter().enumerate() {
            let id = node_id(EdgeTarget::Missing(i));
            S::node(&mut out, &id, &format!("{kind}\n{api}"), NodeStyle::Missing);
        }
        out.push_str(S::CLOSE_GROUP);
    }
    for e in &report.edges {
        let edge = GraphEdge {
            from: node_id(EdgeTarget::Form(e.from)),
            to: node_id(e.to),
            text: edge_text(e),
            status: e.status,
            tips: edge_findings(report, e)
                .iter()
                .map(|f| finding_line(f))
                .collect(),
        };
        S::edge(&mut out, &edge);
    }
    S::footer(&mut out, report);
    out
}

fn mermaid_str(s: &str) -> String {
    let escaped = visible(s)
        .replace('&', "#amp;")
        .replace('"', "#quot;")
        .replace('<', "#lt;")
        .replace('>', "#gt;");
    format!("\"{}\"", escaped.replace('\n', "<br/>"))
}

//! `--format sarif`: the whole run as one SARIF 2.1.0 log (OASIS SARIF
//! v2.1.0; validated in `tests/formats.rs` against the official schema
//! shipped in `tests/sarif/`).
//!
//! Shape: one `run` whose `tool.driver` is `form-package` at the crate
//! version, with one `reportingDescriptor` per code that occurs (sorted by
//! id: `id` = `FD213`, `name` = the kebab name, `shortDescription` = the
//! code's summary, `help.text` = its default help line, then `Spec: <section>`,
//! `defaultConfiguration.level` = its default severity), and one `result`
//! per diagnostic, packages in the order given, diagnostics in their sorted
//! order:
//!
//! - `ruleId` / `ruleIndex`, `level` (`error` | `warning` | `note`),
//!   `message.text` = the diagnostic message;
//! - one `location` whose `physicalLocation.artifactLocation.uri` is the
//!   package path as given joined with the diagnostic's file (`/`
//!   separators, percent-encoded to a URI reference; the package directory
//!   itself when the diagnostic has no file), with a `region` (1-based
//!   `startLine`/`startColumn`, and `endLine`/`endColumn` just past the span,
//!   columns in Unicode code points: `run.columnKind` is
//!   `unicodeCodePoints`) whenever the span resolves, exactly as
//!   [`super::json`] computes `line`/`column`; and one `logicalLocation`
//!   whose `fullyQualifiedName` is the JSON Pointer (`kind` `value`, or
//!   `property` when the finding is about the member name);
//! - `properties`: `package` (the path as given), `file` (or null),
//!   `pointer`, `specCode`, and `help` / `notes` when present.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::codes::Code;
use crate::diag::{Diagnostic, Severity, Target};
use crate::verify::{PackageOutcome, Source};

/// The SARIF version written.
pub const SARIF_VERSION: &str = "2.1.0";
/// The `$schema` URI written: the `$id` of the OASIS SARIF TC's 2.1.0
/// schema (the one shipped in `tests/sarif/`).
pub const SARIF_SCHEMA_URI: &str =
    "https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json";

/// SARIF `level` of a severity (`error`, `warning`, `note`).
pub fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// Turns a file-system path (as given, relative or absolute) into a SARIF
/// URI reference (RFC 3986 §4.1): `\` becomes `/`, and every byte outside
/// the unreserved set, `/` and the sub-delimiters other than `,` is
/// percent-encoded (`:` too, so a relative path never reads as a scheme).
/// `"pkg dir/a.json"` → `"pkg%20dir/a.json"`.
pub fn path_to_uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        let c = if b == b'\\' { b'/' } else { b };
        let keep = c.is_ascii_alphanumeric()
            || matches!(
                c,
                b'-' | b'.'
                    | b'_'
                    | b'~'
                    | b'/'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b';'
                    | b'='
                    | b'@'
            );
        if keep {
            out.push(char::from(c));
        } else {
            out.push_str(&format!("%{c:02X}"));
        }
    }
    out
}

/// The URI of a diagnostic's artifact: `package` joined with `file` (or the
/// package directory itself when `file` is `None`), via [`path_to_uri`].
pub fn artifact_uri(package: &std::path::Path, file: Option<&str>) -> String {
    let joined = match file {
        Some(f) => package.join(f),
        None => package.to_path_buf(),
    };
    path_to_uri(&joined.display().to_string())
}

fn rule(code: Code) -> Value {
    let info = code.info();
    let help = match info.help {
        Some(h) => format!("{h}\nSpec: {}", info.spec_ref),
        None => format!("Spec: {}", info.spec_ref),
    };
    json!({
        "id": info.id,
        "name": info.name,
        "shortDescription": { "text": info.summary },
        "help": { "text": help },
        "defaultConfiguration": { "level": level(info.severity) },
        "properties": { "specCode": info.spec_code, "specRef": info.spec_ref },
    })
}

fn result(p: &PackageOutcome, d: &Diagnostic, rule_index: usize, source: Option<&Source>) -> Value {
    let info = d.code.info();
    let mut physical = Map::new();
    physical.insert(
        "artifactLocation".into(),
        json!({ "uri": artifact_uri(&p.path, d.file.as_deref()) }),
    );
    if let (Some(span), Some(src)) = (super::resolve_span(d, source), source) {
        let (line, col) = super::line_col(&src.bytes, span.start);
        let (end_line, end_col) = super::line_col(&src.bytes, span.end);
        physical.insert(
            "region".into(),
            json!({ "startLine": line, "startColumn": col, "endLine": end_line, "endColumn": end_col }),
        );
    }
    let kind = match d.target {
        Target::Value => "value",
        Target::Key => "property",
    };
    let mut props = Map::new();
    props.insert("package".into(), json!(p.path.display().to_string()));
    props.insert("file".into(), json!(d.file));
    props.insert("pointer".into(), json!(d.pointer.as_str()));
    props.insert("specCode".into(), json!(info.spec_code));
    if let Some(h) = &d.help {
        props.insert("help".into(), json!(h));
    }
    if !d.notes.is_empty() {
        props.insert("notes".into(), json!(d.notes));
    }
    json!({
        "ruleId": info.id,
        "ruleIndex": rule_index,
        "level": level(d.severity),
        "message": { "text": d.message },
        "locations": [ {
            "physicalLocation": Value::Object(physical),
            "logicalLocations": [ { "fullyQualifiedName": d.pointer.as_str(), "kind": kind } ],
        } ],
        "properties": Value::Object(props),
    })
}

/// The SARIF 2.1.0 log of a run as a JSON value (see the module docs).
pub fn log(packages: &[PackageOutcome]) -> Value {
    // One rule per code that occurs, in id order (Code's order is id order).
    let mut rule_index: BTreeMap<Code, usize> = BTreeMap::new();
    for p in packages {
        for d in &p.diagnostics {
            rule_index.insert(d.code, 0);
        }
    }
    for (i, v) in rule_index.values_mut().enumerate() {
        *v = i;
    }
    let rules: Vec<Value> = rule_index.keys().map(|c| rule(*c)).collect();
    let mut results = Vec::new();
    for p in packages {
        for d in &p.diagnostics {
            let source = d.file.as_ref().and_then(|f| p.sources.get(f));
            let index = rule_index.get(&d.code).copied().unwrap_or_default();
            results.push(result(p, d, index, source));
        }
    }
    json!({
        "$schema": SARIF_SCHEMA_URI,
        "version": SARIF_VERSION,
        "runs": [ {
            "tool": { "driver": {
                "name": "form-package",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            } },
            "columnKind": "unicodeCodePoints",
            "results": results,
        } ],
    })
}

/// Renders the whole run as one pretty-printed SARIF 2.1.0 log with a
/// trailing newline.
pub fn render(packages: &[PackageOutcome]) -> String {
    let mut text = serde_json::to_string_pretty(&log(packages))
        .unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::pointer::JsonPointer;
    use std::path::PathBuf;

    fn outcome(path: &str, diags: Vec<Diagnostic>) -> PackageOutcome {
        PackageOutcome {
            path: PathBuf::from(path),
            diagnostics: diags,
            ..Default::default()
        }
    }

    #[test]
    fn uri_encodes_spaces_colons_and_backslashes() {
        assert_eq!(path_to_uri("pkg dir/a.json"), "pkg%20dir/a.json");
        assert_eq!(path_to_uri("c:\\x\\y.json"), "c%3A/x/y.json");
        assert_eq!(path_to_uri("a,b%/é"), "a%2Cb%25/%C3%A9");
        // Near miss: a plain relative path stays as it is.
        assert_eq!(
            path_to_uri("fixtures/packages/v1alpha1/x-1.0.0/definition.json"),
            "fixtures/packages/v1alpha1/x-1.0.0/definition.json"
        );
    }

    #[test]
    fn artifact_uri_joins_file_or_points_at_the_package() {
        let p = PathBuf::from("pkgs/one");
        assert_eq!(
            artifact_uri(&p, Some("fixtures/d.json")),
            "pkgs/one/fixtures/d.json"
        );
        assert_eq!(artifact_uri(&p, None), "pkgs/one");
    }

    #[test]
    fn one_rule_per_occurring_code_in_id_order() {
        let a = Diagnostic::new(Code::OpenObjectSchema, "open")
            .in_file("definition.json")
            .at(JsonPointer::from("/desiredSchema"));
        let b = Diagnostic::new(Code::UnlistedFile, "x").in_file("x.json");
        let c = Diagnostic::new(Code::OpenObjectSchema, "open again")
            .in_file("definition.json")
            .at(JsonPointer::from("/observedSchema"));
        let log = log(&[outcome("p", vec![a, b, c])]);
        let run = &log["runs"][0];
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["FD018", "FD213"]);
        assert_eq!(rules[1]["name"], "open-object-schema");
        assert_eq!(
            rules[1]["help"]["text"],
            "add \"additionalProperties\": false\nSpec: verifier-rules.md §4.3"
        );
        assert_eq!(
            rules[1]["shortDescription"]["text"],
            Code::OpenObjectSchema.info().summary
        );
        let results = run["results"].as_array().unwrap();
        let idx: Vec<u64> = results
            .iter()
            .map(|r| r["ruleIndex"].as_u64().unwrap())
            .collect();
        assert_eq!(idx, [1, 0, 1]);
        assert_eq!(results[2]["ruleId"], "FD213");
        assert_eq!(
            results[2]["locations"][0]["logicalLocations"][0]["fullyQualifiedName"],
            "/observedSchema"
        );
        assert_eq!(
            results[2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "p/definition.json"
        );
        // No source: no region.
        assert!(results[2]["locations"][0]["physicalLocation"]
            .get("region")
            .is_none());
    }

    #[test]
    fn rule_help_names_the_fix_and_the_spec() {
        let r = rule(Code::RootOpen);
        assert_eq!(
            r["help"]["text"],
            "check the directory's permissions and that it still exists\nSpec: verifier-rules.md §1.2 R1.2"
        );
        assert_eq!(r["defaultConfiguration"]["level"], "error");
    }

    #[test]
    fn levels_key_target_and_missing_file() {
        let w = Diagnostic::new(Code::UnsatisfiableAllOf, "w")
            .in_file("definition.json")
            .severity(Severity::Warning);
        let n = Diagnostic::new(Code::RootChanged, "n").severity(Severity::Note);
        let k = Diagnostic::new(Code::ForbiddenPayloadField, "k")
            .in_file("f.json")
            .at_key(JsonPointer::from("/password"));
        let log = log(&[outcome("q", vec![w, n, k])]);
        let results = log["runs"][0]["results"].as_array().unwrap();
        let levels: Vec<&str> = results
            .iter()
            .map(|r| r["level"].as_str().unwrap())
            .collect();
        assert_eq!(levels, ["warning", "note", "error"]);
        assert_eq!(
            results[1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "q"
        );
        assert_eq!(results[1]["properties"]["file"], Value::Null);
        assert_eq!(
            results[2]["locations"][0]["logicalLocations"][0]["kind"],
            "property"
        );
        assert_eq!(
            results[0]["locations"][0]["logicalLocations"][0]["kind"],
            "value"
        );
    }

    #[test]
    fn region_from_explicit_span() {
        let bytes = b"{\n  \"a\": 1\n}".to_vec();
        let mut p = outcome(
            "r",
            vec![Diagnostic::new(Code::InvalidIJson, "bad")
                .in_file("x.json")
                .span(4..7)],
        );
        p.sources
            .insert("x.json".into(), Source { bytes, spans: None });
        let log = log(&[p]);
        let region = &log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
        assert_eq!(
            region,
            &json!({"startLine": 2, "startColumn": 3, "endLine": 2, "endColumn": 6})
        );
    }

    #[test]
    fn empty_run_has_no_rules_or_results() {
        let log = log(&[outcome("ok", vec![])]);
        assert_eq!(log["version"], "2.1.0");
        assert_eq!(log["runs"][0]["tool"]["driver"]["name"], "form-package");
        assert_eq!(log["runs"][0]["tool"]["driver"]["rules"], json!([]));
        assert_eq!(log["runs"][0]["results"], json!([]));
    }
}

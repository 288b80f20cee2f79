//! `explain CODE`, `rules` and the docs book's code pages, all generated
//! from the one code table ([`crate::codes::TABLE`], itself generated from
//! one data file per code, `src/codes/FDnnn.toml`).
//!
//! Pure: every function returns text; the binary prints it, and
//! `tests/docs/docs.rs` keeps the book's pages equal to it.

use crate::codes::{Code, Status, TABLE};

/// The long explanation of one code. Every section is non-empty (the
/// registry test `tests/verify/registry.rs` proves it for every code of `TABLE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// What the rule checks, in a sentence or two.
    pub checks: &'static str,
    /// Why: the risk the rule prevents.
    pub why: &'static str,
    /// A small JSON snippet (one line, prefixed with where it sits) that
    /// fails the rule.
    pub failing: &'static str,
    /// The nearest snippet that passes it.
    pub passing: &'static str,
    /// For an active code no input can produce: why.
    pub unreachable: Option<&'static str>,
}

/// The explanation of `code`, from its code file.
pub fn explanation(code: Code) -> Explanation {
    let i = code.info();
    Explanation {
        checks: i.checks,
        why: i.why,
        failing: i.failing,
        passing: i.passing,
        unreachable: i.unreachable,
    }
}

fn status_word(s: Status) -> &'static str {
    match s {
        Status::Active => "active",
        Status::Removed => "removed",
    }
}

/// The text `explain CODE` prints: id and name, severity, status, spec
/// section (`spec_ref`) and catalogue entry (`spec_code`, `verifier-rules.md`
/// §10 / `current-profile.md` §13), then what the rule checks, why, a failing
/// and a passing example, and the help line. Ends with a newline.
pub fn explain(code: Code) -> String {
    explain_text(code, true)
}

/// [`explain`] without the `module:` line (the source folders that emit the
/// code): the text an editor's hover shows a package author, who has no
/// use for our source paths.
pub fn explain_for_authors(code: Code) -> String {
    explain_text(code, false)
}

/// [`explain`]'s text, with the `module:` line when `modules` is set.
fn explain_text(code: Code, modules: bool) -> String {
    let i = code.info();
    let e = explanation(code);
    let catalogue = if i.spec_code.is_empty() {
        "(none: this check is ours, the reference verifier has no such finding)"
    } else {
        i.spec_code
    };
    let removed = if i.status == Status::Removed {
        "\nThis code is removed: it is never emitted and its id is never reused.\n".to_owned()
    } else if let Some(why) = e.unreachable {
        format!("\nNo input can produce this code: {why}.\n")
    } else {
        String::new()
    };
    format!(
        "{id} {name}\n\
         severity: {sev}\n\
         status: {status}\n\
         spec: {spec}\n\
         catalogue: {catalogue}\n\
         {module}\
         {removed}\n\
         What it checks:\n{checks}\n\n\
         Why:\n{why}\n\n\
         Failing example:\n{failing}\n\n\
         Passing example:\n{passing}\n\n\
         Help: {help}\n",
        id = i.id,
        name = i.name,
        sev = i.severity.as_str(),
        status = status_word(i.status),
        spec = i.spec_ref,
        checks = e.checks,
        why = e.why,
        failing = e.failing,
        passing = e.passing,
        help = i.help.unwrap_or("(none)"),
        module = if modules {
            format!("module: {}\n", module_text(code))
        } else {
            String::new()
        },
    ) + &vocabulary_text(code)
}

/// The forbidden-field codes end with the whole vocabulary (issue 26 item
/// 5: it can be listed); every other code with nothing.
fn vocabulary_text(code: Code) -> String {
    match code {
        Code::ForbiddenPayloadField
        | Code::ForbiddenDefinitionField
        | Code::ForbiddenSchemaName => {
            format!("\n{}", crate::vocabulary::listing())
        }
        _ => String::new(),
    }
}

/// The modules that emit `code` (`src/proof/`, `src/checks/index.rs`),
/// joined by `, `; `-` for a removed code.
fn module_text(code: Code) -> String {
    let modules = crate::checks::emitting_modules(code);
    if modules.is_empty() {
        "-".to_owned()
    } else {
        modules.join(", ")
    }
}

/// Text from a code file as Markdown prose: `<` escaped, so that
/// `<name>` placeholders are not read as HTML.
fn md(text: &str) -> String {
    text.replace('<', "&lt;")
}

/// Text as a Markdown table cell: [`md`], and `|` escaped.
fn md_cell(text: &str) -> String {
    md(text).replace('|', "\\|")
}

/// The page of one code in the docs book, `docs/src/codes/FDnnn.md`: id
/// and name, summary, severity, status, spec section, catalogue entry and
/// emitting modules, then what it checks, why, the failing and passing
/// examples (as code blocks), the help line, and for a code no input can
/// produce, why. Ends with a newline.
pub fn code_page(code: Code) -> String {
    let i = code.info();
    let e = explanation(code);
    let catalogue = if i.spec_code.is_empty() {
        "none: this check is ours, the reference verifier has no such finding".to_owned()
    } else {
        format!("`{}`", i.spec_code)
    };
    let mut page = format!(
        "# {id} {name}\n\n{summary}\n\n| | |\n|---|---|\n\
         | severity | {sev} |\n| status | {status} |\n| spec | {spec} |\n\
         | catalogue | {catalogue} |\n| emitted by | {module} |\n",
        id = i.id,
        name = i.name,
        summary = md(i.summary),
        sev = i.severity.as_str(),
        status = status_word(i.status),
        spec = md_cell(i.spec_ref),
        module = match crate::checks::emitting_modules(code) {
            m if m.is_empty() => "none (removed)".to_owned(),
            m => m
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", "),
        },
    );
    if i.status == Status::Removed {
        page.push_str("\nThis code is removed: it is never emitted and its id is never reused.\n");
    } else if let Some(why) = e.unreachable {
        page.push_str(&format!(
            "\n**No input can produce this code:** {}.\n",
            md(why)
        ));
    }
    page.push_str(&format!(
        "\n## What it checks\n\n{}\n\n## Why\n\n{}\n\n\
         ## Failing example\n\n```text\n{}\n```\n\n\
         ## Passing example\n\n```text\n{}\n```\n\n## Help\n\n{}\n\n\
         ---\n\nGenerated from `src/codes/{}.toml` (`form-package explain {}` prints the same); \
         [every code](../codes.md).\n",
        md(e.checks),
        md(e.why),
        e.failing,
        e.passing,
        md(i.help.unwrap_or("(none)")),
        i.id,
        i.id,
    ));
    page
}

/// The table of every code for the docs book's codes page: code (a link to
/// its page), name, severity, status, emitting modules and summary, one row
/// per code in id order. Ends with a newline.
pub fn codes_markdown() -> String {
    let mut table = String::from(
        "| code | name | severity | status | emitted by | summary |\n|---|---|---|---|---|---|\n",
    );
    for i in TABLE {
        table.push_str(&format!(
            "| [{id}](codes/{id}.md) | `{name}` | {sev} | {status} | {module} | {summary} |\n",
            id = i.id,
            name = i.name,
            sev = i.severity.as_str(),
            status = status_word(i.status),
            module = md_cell(&module_text(i.code)),
            summary = md_cell(i.summary),
        ));
    }
    table
}

/// The lines of the docs book's `SUMMARY.md` that list every code page,
/// indented under *Diagnostic codes*. Ends with a newline.
pub fn codes_summary() -> String {
    TABLE
        .iter()
        .map(|i| format!("  - [{} {}](codes/{}.md)\n", i.id, i.name, i.id))
        .collect()
}

/// The text `rules` prints: a header line, then one line per code of
/// `TABLE` in id order with the columns ID, NAME, SEVERITY, STATUS, MODULE
/// (the emitting modules, see [`crate::checks::emitting_modules`]), SUMMARY
/// padded so the columns line up (two spaces between columns).
pub fn rules() -> String {
    let name_w = TABLE.iter().map(|i| i.name.len()).max().unwrap_or(4).max(4);
    let modules: Vec<String> = TABLE.iter().map(|i| module_text(i.code)).collect();
    let module_w = modules.iter().map(String::len).max().unwrap_or(6).max(6);
    let mut out = format!(
        "{:<5}  {:<name_w$}  {:<8}  {:<7}  {:<module_w$}  SUMMARY\n",
        "ID", "NAME", "SEVERITY", "STATUS", "MODULE"
    );
    for (i, module) in TABLE.iter().zip(&modules) {
        out.push_str(&format!(
            "{:<5}  {:<name_w$}  {:<8}  {:<7}  {:<module_w$}  {}\n",
            i.id,
            i.name,
            i.severity.as_str(),
            status_word(i.status),
            module,
            i.summary
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explain_has_every_section_in_order() {
        let text = explain(Code::OpenObjectSchema);
        let mut at = 0;
        for needle in [
            "FD213 open-object-schema\n",
            "severity: error\n",
            "status: active\n",
            "spec: verifier-rules.md §4.3\n",
            "catalogue: PROOF_OBJECT_OPEN\n",
            "module: src/proof/\n",
            "What it checks:\n",
            "Why:\n",
            "Failing example:\n",
            "Passing example:\n",
            "Help: add \"additionalProperties\": false\n",
        ] {
            let found = text[at..]
                .find(needle)
                .unwrap_or_else(|| panic!("{needle:?} after {at} in\n{text}"));
            at += found + needle.len();
        }
        assert_eq!(at, text.len());
    }

    #[test]
    fn explain_marks_ours_and_removed_codes() {
        let ours = explain(Code::UnsatisfiableAllOf);
        assert!(ours.contains("severity: warning\n"));
        assert!(ours.contains("catalogue: (none"));
        assert!(ours.contains("Help: declare the required property in every closed allOf branch"));
        let removed = explain(Code::RoleBindings);
        assert!(removed.contains("status: removed\n"));
        assert!(removed.contains("never emitted"));
        let active = explain(Code::TrueSchema);
        assert!(!active.contains("never emitted"));
        assert!(explain(Code::EdgeReferenceWithoutContract).contains("severity: note\n"));
    }

    #[test]
    fn rules_columns_line_up() {
        let text = rules();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), TABLE.len() + 1);
        let cols: Vec<usize> = ["NAME", "SEVERITY", "STATUS", "SUMMARY", "MODULE"]
            .iter()
            .map(|h| lines[0].find(h).unwrap())
            .collect();
        assert_eq!(cols[0], 7);
        let row = lines
            .iter()
            .find(|l| l.starts_with("FD223"))
            .unwrap()
            .to_string();
        assert_eq!(&row[cols[0]..cols[0] + 20], "unsatisfiable-all-of");
        assert_eq!(&row[cols[1]..cols[1] + 7], "warning");
        assert_eq!(&row[cols[2]..cols[2] + 6], "active");
        assert_eq!(&row[cols[3]..], Code::UnsatisfiableAllOf.info().summary);
        assert_eq!(&row[cols[4]..cols[4] + 11], "src/proof/ ");
        let removed = lines.iter().find(|l| l.starts_with("FD418")).unwrap();
        assert_eq!(&removed[cols[2]..cols[2] + 7], "removed");
    }

    /// Issue 26 item 5: `explain` of a forbidden-field code lists the
    /// vocabulary (every name of every list, the exempt keys); near miss:
    /// another code's explanation does not.
    #[test]
    fn the_vocabulary_codes_list_the_vocabulary() {
        for code in [
            Code::ForbiddenPayloadField,
            Code::ForbiddenDefinitionField,
            Code::ForbiddenSchemaName,
        ] {
            let text = explain(code);
            assert!(text.contains("The forbidden-field vocabulary"), "{text}");
            for list in [
                crate::vocabulary::N_LIST,
                crate::vocabulary::B_LIST,
                crate::vocabulary::Q_LIST,
                crate::vocabulary::T_LIST,
                crate::vocabulary::P_LIST,
                crate::vocabulary::SEQUENCE_LIST,
                crate::vocabulary::ALTERNATE_LIST,
            ] {
                for name in crate::vocabulary::list_entries(list) {
                    assert!(
                        text.contains(&format!(" {name},")) || text.contains(&format!(" {name}\n")),
                        "{code:?} lacks {name:?}"
                    );
                }
            }
            assert!(text.contains("x-takoform-fieldPolicy"));
            let listing = &text[text.find("The forbidden-field vocabulary").unwrap()..];
            assert!(
                listing.lines().all(|l| l.chars().count() <= 84),
                "{listing}"
            );
        }
        assert!(!explain(Code::OpenObjectSchema).contains("forbidden-field vocabulary"));
        // What the listing promises of substrings holds.
        assert!(crate::vocabulary::is_forbidden("keyboard").is_none());
        assert!(crate::vocabulary::is_forbidden("tokenizer").is_none());
        assert!(crate::vocabulary::is_forbidden("apiKey").is_some());
    }

    /// Issue 26 item 5: FD121's help does not send the reader back to
    /// `explain FD121`, and its examples show the current profile first;
    /// near miss: the legacy lane is still shown, after it.
    #[test]
    fn fd121_is_not_circular_and_shows_the_current_profile_first() {
        let text = explain(Code::DefinitionSchemaViolation);
        assert!(!text.contains("explain FD121"), "{text}");
        assert!(text.contains("schema definition --profile"), "{text}");
        let passing = explanation(Code::DefinitionSchemaViolation).passing;
        let current = passing.find("edge.forms.takoform.com").unwrap();
        let legacy = passing.find("forms.takoform.com/v1alpha1").unwrap();
        assert!(current < legacy, "{passing}");
        assert!(explanation(Code::DefinitionSchemaViolation)
            .failing
            .starts_with(r#"definition: {"apiVersion":"edge.forms.takoform.com""#));
    }
}

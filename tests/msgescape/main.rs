//! Package text inside a finding's message (breaker F13): every format
//! prints the message as the check built it, so the check quotes package
//! text with `diag::escape::quote` (Go's `%q`, the notation the human
//! renderer already showed) and the JSON, SARIF, GitHub and human formats
//! show one and the same text. Each family of messages gets a member name,
//! a file name or a value holding every class of the finding: ESC (a
//! colour), OSC + BEL (a window title), C1 U+0085, the bidi override
//! U+202E, the C1 CSI U+009B, DEL, LF and U+2028. The `file` and `pointer`
//! data members stay exact (data, and a valid RFC 6901 pointer). The near
//! miss: printable non-ASCII text (`é`, `日本`) is printed as it is.
#[path = "../common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};

use form_package::render::escape;
use serde_json::{json, Value};

/// Every class of the finding in one string, as package text.
const HOSTILE: &str =
    "e\u{1b}[31mX\u{1b}]0;T\u{7}\u{85}c1\u{202e}rlo\u{9b}csi\u{7f}del\nlf\u{2028}ls";

/// [`HOSTILE`] quoted in a message, in every format.
const QUOTED: &str = r#""e\x1b[31mX\x1b]0;T\a\u0085c1\u202erlo\u009bcsi\x7fdel\nlf\u2028ls""#;

/// Printable non-ASCII text: the near miss.
const PLAIN: &str = "é日本";

const QUEUE_CONSUMER: &str = "versionless/queue-consumer-0.2.0-03c2f61a47b7";

fn read_json(p: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

fn write_json(p: &Path, v: &Value) {
    std::fs::write(p, serde_json::to_vec_pretty(v).unwrap()).unwrap();
}

/// The queue consumer in a temporary directory, changed by `change` and
/// re-indexed.
fn package(change: impl FnOnce(&Path)) -> (tempfile::TempDir, PathBuf) {
    let src = common::fixtures().join("packages").join(QUEUE_CONSUMER);
    let (tmp, dir) = common::copy_package(&src);
    change(&dir);
    common::reindex(&dir);
    (tmp, dir)
}

/// The queue consumer whose canonical desired fixture holds a member named
/// `text` (FD410, an unexpected member) and names its queue `text` (FD410,
/// the engine's pattern message quoting the value), with an unlisted file
/// named `text` beside the index (FD018).
fn fixture_and_file_named(text: &str) -> (tempfile::TempDir, PathBuf) {
    let (tmp, dir) = package(|dir| {
        let p = dir.join("fixtures/desired.json");
        let mut d = read_json(&p);
        d[text] = json!(1);
        d["queue"]["name"] = json!(text);
        write_json(&p, &d);
    });
    std::fs::write(dir.join(text), b"x").unwrap();
    (tmp, dir)
}

/// What one run of `verify` printed in each format.
struct Shown {
    /// `--format json`, parsed.
    json: Value,
    /// `--format sarif`, parsed.
    sarif: Value,
    /// `--format human`.
    human: String,
    /// `--format github`.
    github: String,
}

fn verify_all(dir: &Path) -> Shown {
    let run = |format: &str| {
        let o = common::run(&["verify", dir.to_str().unwrap(), "--format", format]);
        common::assert_exit(&o, 1);
        common::stdout(&o)
    };
    Shown {
        json: serde_json::from_str(&run("json")).unwrap(),
        sarif: serde_json::from_str(&run("sarif")).unwrap(),
        human: run("human"),
        github: run("github"),
    }
}

impl Shown {
    /// The JSON report's diagnostics of `code`.
    fn json_of(&self, code: &str) -> Vec<&Value> {
        self.json["packages"][0]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"] == code)
            .collect()
    }

    /// The SARIF results of `code`.
    fn sarif_of(&self, code: &str) -> Vec<&Value> {
        self.sarif["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["ruleId"] == code)
            .collect()
    }

    /// Asserts that `message` is a finding of `code` in every format: the
    /// JSON `message`, the SARIF `message.text`, the human `× message`
    /// line and the GitHub workflow command's text.
    fn assert_message(&self, code: &str, message: &str) {
        let json: Vec<&str> = self
            .json_of(code)
            .iter()
            .map(|d| d["message"].as_str().unwrap())
            .collect();
        assert!(
            json.contains(&message),
            "JSON {code}: {json:#?}\nwant {message}"
        );
        let sarif: Vec<&str> = self
            .sarif_of(code)
            .iter()
            .map(|r| r["message"]["text"].as_str().unwrap())
            .collect();
        assert!(
            sarif.contains(&message),
            "SARIF {code}: {sarif:#?}\nwant {message}"
        );
        let human = format!("  × {message}");
        assert!(
            self.human.lines().any(|l| l == human),
            "human: no line {human:?} in\n{}",
            self.human
        );
        assert!(
            self.github
                .lines()
                .any(|l| l.contains(&format!("title={code} ")) && l.contains(message)),
            "github: no {code} with {message:?} in\n{}",
            self.github
        );
    }

    /// Asserts that no message of any format holds a character the
    /// renderers escape, nor Rust's `\u{…}` or JSON's `\u001b` notation.
    fn assert_one_notation(&self) {
        let messages: Vec<&str> = self.json["packages"][0]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .chain(self.sarif["runs"][0]["results"].as_array().unwrap())
            .map(|d| {
                d["message"]
                    .as_str()
                    .or(d["message"]["text"].as_str())
                    .unwrap()
            })
            .collect();
        assert!(!messages.is_empty());
        for m in messages {
            assert!(!m.chars().any(escape::needs_escape), "raw: {m:?}");
            // Rust's `\u{1b}`, JSON's `\u001b` (Go's `\u0085` is the one).
            let other = ["\\u{", "\\u000", "\\u001"];
            assert!(!other.iter().any(|o| m.contains(o)), "notation: {m}");
        }
        for out in [&self.human, &self.github] {
            assert!(!out.contains(HOSTILE));
            assert!(!out.contains("\\u{"), "{out}");
        }
    }
}

/// The quoted form is what the human renderer printed for a name quoted
/// with Rust's `{:?}` (FD018): its output is unchanged, and now every
/// format carries it.
#[test]
fn the_quoted_form_is_the_human_one() {
    assert_eq!(escape::quote(HOSTILE), QUOTED);
    assert_eq!(escape::message(&format!("{HOSTILE:?}")), QUOTED);
    assert_eq!(escape::message(QUOTED), QUOTED);
    assert_eq!(escape::quote(PLAIN), format!("\"{PLAIN}\""));
}

/// FD018 (a file name), FD410 (a member name; a value the engine quotes
/// as JSON): the same escaped message in the JSON, SARIF, human and
/// GitHub formats; `file` and `pointer` stay exact.
#[test]
fn file_member_and_value_messages_agree_in_every_format() {
    let (_tmp, dir) = fixture_and_file_named(HOSTILE);
    let shown = verify_all(&dir);
    shown.assert_message(
        "FD018",
        &format!("package file closure mismatch: {QUOTED} is not listed"),
    );
    let fixture =
        "conformance fixture canonical desired does not satisfy its Form Definition schema";
    shown.assert_message(
        "FD410",
        &format!("{fixture}: unexpected member {QUOTED} (additionalProperties is false)"),
    );
    shown.assert_message(
        "FD410",
        &format!(r#"{fixture}: {QUOTED} does not match "^[a-z]([a-z0-9-]{{0,61}}[a-z0-9])?$""#),
    );
    shown.assert_one_notation();
    // The data members are exact.
    let unlisted = shown.json_of("FD018");
    assert!(
        unlisted.iter().any(|d| d["file"] == HOSTILE),
        "{unlisted:#?}"
    );
    let member = format!("/{HOSTILE}");
    let fd410 = shown.json_of("FD410");
    assert!(
        fd410.iter().any(|d| d["pointer"] == member.as_str()),
        "{fd410:#?}"
    );
    let sarif = shown.sarif_of("FD410");
    assert!(
        sarif
            .iter()
            .any(|r| r["properties"]["pointer"] == member.as_str()),
        "{sarif:#?}"
    );
    assert!(
        shown
            .sarif_of("FD018")
            .iter()
            .any(|r| r["properties"]["file"] == HOSTILE),
        "{:#?}",
        shown.sarif_of("FD018")
    );
}

/// Near miss: printable non-ASCII text in the same places is quoted as it
/// is, with no escape.
#[test]
fn printable_non_ascii_stays_as_it_is() {
    let (_tmp, dir) = fixture_and_file_named(PLAIN);
    let shown = verify_all(&dir);
    let fixture =
        "conformance fixture canonical desired does not satisfy its Form Definition schema";
    shown.assert_message(
        "FD410",
        &format!("{fixture}: unexpected member \"{PLAIN}\" (additionalProperties is false)"),
    );
    shown.assert_message(
        "FD410",
        &format!(r#"{fixture}: "{PLAIN}" does not match "^[a-z]([a-z0-9-]{{0,61}}[a-z0-9])?$""#),
    );
    shown.assert_one_notation();
}

/// FD020 (the strict reader's duplicate member name, quoted by the reader
/// with Rust's `{:?}`): the finding carries Go's notation.
#[test]
fn a_duplicate_member_name_is_quoted_in_one_notation() {
    // Changed after indexing: a definition that is not I-JSON has no index.
    let (_tmp, dir) = package(|_| {});
    let p = dir.join("definition.json");
    let raw = std::fs::read_to_string(&p).unwrap();
    let name = Value::from(HOSTILE).to_string();
    let raw = raw.replacen('{', &format!("{{{name}: 1, {name}: 2,"), 1);
    std::fs::write(&p, raw).unwrap();
    let shown = verify_all(&dir);
    shown.assert_message("FD020", &format!("duplicate object name {QUOTED}"));
    shown.assert_one_notation();
}

/// FD121 (the definition schema's own wording, which quotes the value as
/// JSON): a conformance fixture named [`HOSTILE`].
#[test]
fn a_definition_schema_message_quotes_in_one_notation() {
    let (_tmp, dir) = package(|dir| {
        let p = dir.join("definition.json");
        let mut d = read_json(&p);
        d["conformanceFixtures"][0]["name"] = json!(HOSTILE);
        write_json(&p, &d);
    });
    let shown = verify_all(&dir);
    shown.assert_message(
        "FD121",
        &format!(
            "Form Definition: does not satisfy Draft 2020-12 schema: {QUOTED} is not a fixture name: lowercase ASCII letters, digits, '.', '_' and '-', starting with a letter or digit, at most 128"
        ),
    );
    shown.assert_one_notation();
}

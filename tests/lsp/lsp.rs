//! `form-package lsp` driven out of process (issue 24): the built binary is
//! spawned and spoken to in JSON-RPC with `Content-Length` framing on its
//! standard input and output, as an editor does.
//!
//! Every wait is bounded ([`WAIT`]): a server that does not answer fails
//! the test instead of hanging it. The corpus test is reported as ignored,
//! not passed, when the corpus is absent.

use crate::common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use libtest_mimic::{Failed, Trial};
use serde_json::{json, Value};

/// The longest wait for any one message (a loaded machine, a debug build).
const WAIT: Duration = Duration::from_secs(120);

/// The corpus package of the end-to-end test: findings in its definition
/// and in three fixtures, and `"additionalProperties": false` to remove.
const CORPUS_PACKAGE: &str = "packages/v1alpha3/worker-version-0.1.0-6d85e6d07c13";

fn bin() -> &'static str {
    crate::common::BIN
}

/// Runs `form-package COMMAND DIR` (e.g. `index`, `verify`) and asserts it
/// succeeded.
fn succeeds(command: &str, dir: &Path) {
    let out = Command::new(bin()).arg(command).arg(dir).output().unwrap();
    assert!(out.status.success(), "{out:?}");
}

/// One diagnostic, comparable: (file, code, message, range as
/// (start line, start column, end line, end column) in UTF-16 units).
type Finding = (String, String, String, [u64; 4]);

/// A running server and what it said.
struct Client {
    child: Child,
    /// `None` once closed.
    stdin: Option<ChildStdin>,
    messages: Receiver<Value>,
    next_id: i64,
    /// The last diagnostics published, by URI.
    published: BTreeMap<String, Vec<Value>>,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(bin())
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || loop {
            let mut len = None;
            loop {
                let mut line = String::new();
                if stdout.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(v) = line.strip_prefix("Content-Length: ") {
                    len = v.parse::<usize>().ok();
                }
            }
            let mut body = vec![0; len.expect("a Content-Length header")];
            if stdout.read_exact(&mut body).is_err() {
                return;
            }
            let v: Value = serde_json::from_slice(&body).expect("the server writes JSON");
            if tx.send(v).is_err() {
                return;
            }
        });
        Client {
            child,
            stdin: Some(stdin),
            messages: rx,
            next_id: 0,
            published: BTreeMap::new(),
        }
    }

    fn send_raw(&mut self, body: &[u8]) {
        let header = format!("Content-Length: {}\r\n\r\n", body.len());
        self.write(header.as_bytes());
        self.write(body);
    }

    fn write(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        let m = json!({"jsonrpc": "2.0", "method": method, "params": params});
        self.send_raw(m.to_string().as_bytes());
    }

    /// Sends a request and returns the response (publications that arrive
    /// first are recorded).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let m = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_raw(m.to_string().as_bytes());
        self.response(&json!(id))
    }

    /// The next message that is not a publication, recording publications.
    fn next_reply(&mut self) -> Value {
        loop {
            let m = self
                .messages
                .recv_timeout(WAIT)
                .unwrap_or_else(|e| panic!("no message from the server within {WAIT:?}: {e}"));
            if m["method"] == "textDocument/publishDiagnostics" {
                let uri = m["params"]["uri"].as_str().unwrap().to_owned();
                let list = m["params"]["diagnostics"].as_array().unwrap().clone();
                self.published.insert(uri, list);
                continue;
            }
            if m["method"] == "window/logMessage" {
                continue;
            }
            return m;
        }
    }

    /// The response to request `id`.
    fn response(&mut self, id: &Value) -> Value {
        let m = self.next_reply();
        assert_eq!(&m["id"], id, "responses come in order: {m}");
        m
    }

    /// A server started and initialized after asserting that its
    /// `initialize` result offers `want` at `capability` (member names
    /// under `capabilities`).
    fn offering(capability: &[&str], want: Value) -> Client {
        let mut c = Client::start();
        let r = c.request("initialize", json!({"capabilities": {}}));
        let got = capability
            .iter()
            .fold(&r["result"]["capabilities"], |v, k| &v[*k]);
        assert_eq!(got, &want, "{r}");
        c.notify("initialized", json!({}));
        c
    }

    /// A server started and initialized ([`Client::initialize`]).
    fn initialized() -> Client {
        let mut c = Client::start();
        c.initialize();
        c
    }

    fn initialize(&mut self) {
        let r = self.request("initialize", json!({"capabilities": {}}));
        assert_eq!(r["result"]["capabilities"]["hoverProvider"], true, "{r}");
        assert_eq!(
            r["result"]["capabilities"]["textDocumentSync"]["change"], 1,
            "full sync: {r}"
        );
        self.notify("initialized", json!({}));
    }

    /// Waits until every change sent so far is verified and published: a
    /// hover is answered only after pending verifications, and the server
    /// writes in order.
    fn settle(&mut self, uri: &str) -> Value {
        self.hover(uri, 0, 0)
    }

    /// Asserts that `method` on `uri` with no other parameter (no
    /// position) is refused with InvalidParams (-32602).
    fn refuses_without_position(&mut self, method: &str, uri: &str) {
        let r = self.request(method, json!({"textDocument": {"uri": uri}}));
        assert_eq!(r["error"]["code"], -32602, "InvalidParams: {r}");
    }

    fn hover(&mut self, uri: &str, line: u64, character: u64) -> Value {
        self.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
        )
    }

    /// Every published diagnostic of the package at `root`, comparable.
    fn findings(&self, root: &Path) -> Vec<Finding> {
        let prefix = format!("file://{}/", root.display());
        let mut out = Vec::new();
        for (uri, list) in &self.published {
            let file = uri.strip_prefix(&prefix).expect("a file of the package");
            for d in list {
                let r = &d["range"];
                out.push((
                    file.to_owned(),
                    // "" for the one diagnostic without a code: the count
                    // of those left out of a capped list.
                    d["code"].as_str().unwrap_or_default().to_owned(),
                    d["message"].as_str().unwrap().to_owned(),
                    [
                        r["start"]["line"].as_u64().unwrap(),
                        r["start"]["character"].as_u64().unwrap(),
                        r["end"]["line"].as_u64().unwrap(),
                        r["end"]["character"].as_u64().unwrap(),
                    ],
                ));
                assert_eq!(d["source"], "form-package");
                assert!(d.get("codeDescription").is_none(), "no docs URL: {d}");
            }
        }
        out.sort();
        out
    }

    /// `shutdown` then `exit`; the server must end with status 0 in time.
    fn stop(mut self) {
        let r = self.request("shutdown", Value::Null);
        assert_eq!(r["result"], Value::Null, "{r}");
        assert!(r.get("error").is_none(), "{r}");
        self.notify("exit", Value::Null);
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(
                    status.success(),
                    "exit after shutdown is status 0: {status}"
                );
                return;
            }
            if start.elapsed() > WAIT {
                let _ = self.child.kill();
                panic!("the server did not exit within {WAIT:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        // A failed test must not leave the server running.
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn uri_of(path: &Path) -> String {
    let s = path.display().to_string();
    assert!(
        s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/-._".contains(&b)),
        "a temporary path that needs no percent-encoding: {s}"
    );
    format!("file://{s}")
}

/// The LSP position (0-based line, UTF-16 column) of byte `offset`; lines
/// end at LF, CR LF or CR.
fn utf16_position(bytes: &[u8], offset: usize) -> (u64, u64) {
    let text = String::from_utf8_lossy(&bytes[..offset.min(bytes.len())]).into_owned();
    let unified = text.replace("\r\n", "\n").replace('\r', "\n");
    let line = unified.matches('\n').count() as u64;
    let last = unified.rsplit('\n').next().unwrap_or("");
    (line, last.encode_utf16().count() as u64)
}

/// What `verify --format json` finds in the package at `dir`, comparable,
/// files and ranges as the server shows them (a finding without a file is
/// on `package-index.json`; one without a span at the file's start).
fn verify_findings(dir: &Path) -> Vec<Finding> {
    let out = Command::new(bin())
        .args(["verify", "--format", "json"])
        .arg(dir)
        .output()
        .unwrap();
    report_findings(&out.stdout, dir)
}

/// The findings of a `--format json` report (`verify`'s or `check`'s) of
/// one package or document whose files are in `dir`, comparable.
fn report_findings(stdout: &[u8], dir: &Path) -> Vec<Finding> {
    let report: Value = serde_json::from_slice(stdout).unwrap();
    let mut found = Vec::new();
    // Each file read once, with where its lines start (80,000 findings in
    // one file must not mean 80,000 reads and scans of it).
    let mut files: BTreeMap<String, (Vec<u8>, Vec<usize>)> = BTreeMap::new();
    for d in report["packages"][0]["diagnostics"].as_array().unwrap() {
        let file = d["file"]
            .as_str()
            .unwrap_or("package-index.json")
            .to_owned();
        let range = match (&d["span"], d["file"].is_string()) {
            (Value::Object(s), true) => {
                let (bytes, starts) = files.entry(file.clone()).or_insert_with(|| {
                    let bytes = std::fs::read(dir.join(&file)).unwrap();
                    let mut starts = vec![0];
                    starts.extend((0..bytes.len()).filter_map(|i| {
                        let end = bytes[i] == b'\n'
                            || (bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n'));
                        end.then_some(i + 1)
                    }));
                    (bytes, starts)
                });
                let at = |offset: usize| {
                    let line = starts.partition_point(|&s| s <= offset) - 1;
                    let (_, column) = utf16_position(&bytes[starts[line]..], offset - starts[line]);
                    (line as u64, column)
                };
                let (sl, sc) = at(s["start"].as_u64().unwrap() as usize);
                let (el, ec) = at(s["end"].as_u64().unwrap() as usize);
                // The JSON's own 1-based line agrees.
                assert_eq!(d["line"].as_u64().unwrap(), sl + 1, "{d}");
                [sl, sc, el, ec]
            }
            _ => [0; 4],
        };
        found.push((
            file,
            d["code"].as_str().unwrap().to_owned(),
            d["message"].as_str().unwrap().to_owned(),
            range,
        ));
    }
    found.sort();
    found
}

/// The text `form-package explain CODE` prints.
/// `explain CODE`'s text as a hover shows it: without the `module:` line
/// (a source path of ours; issue 36 item 12), which `explain` prints.
fn explain(code: &str) -> String {
    let out = Command::new(bin())
        .args(["explain", code])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let module = lines
        .iter()
        .filter(|l| l.starts_with("module: src/"))
        .count();
    assert_eq!(module, 1, "explain {code} names its module once: {text}");
    lines
        .into_iter()
        .filter(|l| !l.starts_with("module: "))
        .collect()
}

/// The corpus package: diagnostics equal `verify --format json`'s, an
/// unsaved edit that opens an object brings FD213 (equal to `verify` of
/// the edited package), hover explains it, undoing the edit clears it.
fn diagnostics_follow_the_buffer(corpus: &Path) -> Result<(), Failed> {
    let (tmp, pkg) = common::copy_package(&corpus.join(CORPUS_PACKAGE));
    let def_path = pkg.join("definition.json");
    let original = std::fs::read_to_string(&def_path).unwrap();
    let def = uri_of(&def_path);
    let expected = verify_findings(&pkg);
    assert!(
        expected.iter().any(|f| f.0 == "definition.json")
            && expected.iter().any(|f| f.0.starts_with("fixtures/")),
        "the package has findings in several files: {expected:?}"
    );

    let mut c = Client::initialized();
    open_doc(&mut c, &def, &original);
    c.settle(&def);
    assert_eq!(c.findings(&pkg), expected);
    assert!(!expected.iter().any(|f| f.1 == "FD213"));

    // Open an object: remove one `"additionalProperties": false`.
    let re = regex::Regex::new(r#",\s*"additionalProperties": false"#).unwrap();
    let m = re.find(&original).unwrap();
    let edited = format!("{}{}", &original[..m.start()], &original[m.end()..]);
    change_doc(&mut c, &def, 2, &edited);
    c.settle(&def);
    // The same as `verify` of a package holding the edited file; the file
    // on disk is untouched (nothing was saved).
    let with_edit = verify_saved(&pkg, &tmp.path().join("edited"), &edited);
    assert_eq!(c.findings(&pkg), with_edit);
    assert_eq!(std::fs::read_to_string(&def_path).unwrap(), original);
    let open = with_edit
        .iter()
        .find(|f| f.1 == "FD213" && f.0 == "definition.json")
        .expect("FD213 appears");

    // Hover inside its range: the code's `explain` text.
    let h = c.hover(&def, open.3[0], open.3[1]);
    assert_eq!(h["result"]["contents"]["value"], explain("FD213"), "{h}");
    let shown = h["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(
        !shown.contains("src/"),
        "a hover names no source path: {shown}"
    );

    // Undo: FD213 goes, and the findings are the original ones again.
    change_doc(&mut c, &def, 3, &original);
    c.settle(&def);
    let now = c.findings(&pkg);
    assert!(!now.iter().any(|f| f.1 == "FD213"), "{now:?}");
    assert_eq!(now, expected);
    c.stop();
    Ok(())
}

/// The disk is read when a package's file is opened, saved or closed, or
/// the client reports a change on disk, never per keystroke (issue 38
/// item 3): a fixture changed on disk behind the editor's back is not seen
/// by edits of the definition, and is seen (as `verify` sees it) once the
/// client reports it (`workspace/didChangeWatchedFiles`), the near miss.
fn the_disk_is_read_again_on_a_reported_change_not_per_keystroke() -> Result<(), Failed> {
    let (tmp, pkg, def, text) = fixture_definition();
    let fixture = pkg.join("fixtures/desired.json");
    let mut c = Client::initialized();
    open_doc(&mut c, &def, &text);
    c.settle(&def);
    assert_eq!(c.findings(&pkg), Vec::<Finding>::new());

    // Another program changes a fixture; the editor keeps typing.
    let mut bytes = std::fs::read(&fixture).unwrap();
    bytes.extend_from_slice(b"\n");
    std::fs::write(&fixture, &bytes).unwrap();
    change_doc(&mut c, &def, 2, &format!("{text} "));
    change_doc(&mut c, &def, 3, &text);
    c.settle(&def);
    assert_eq!(
        c.findings(&pkg),
        Vec::<Finding>::new(),
        "a keystroke verifies over the disk as it was read"
    );

    // Reported by the client's watcher: read again, as `verify` reads it.
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri_of(&fixture), "type": 2}]}),
    );
    c.settle(&def);
    let now = c.findings(&pkg);
    assert!(!now.is_empty(), "the changed fixture is seen: {now:?}");
    assert_eq!(now, verify_findings(&pkg));
    c.stop();
    drop(tmp);
    Ok(())
}

/// Why Neovim cannot run here, if it cannot.
fn nvim_missing() -> Option<String> {
    let out = Command::new("nvim").arg("--version").output();
    match out {
        Ok(o) if o.status.success() => None,
        _ => Some("`nvim` is not on PATH (Debian's package neovim; .ci/run installs it)".into()),
    }
}

/// The findings of `facts[key]` (Neovim's `vim.diagnostic.get()`), as
/// (code, line, column), sorted.
fn nvim_codes(facts: &Value, key: &str) -> Vec<(String, u64, u64)> {
    let mut out: Vec<(String, u64, u64)> = facts[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} in {facts}"))
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or_default().to_owned(),
                d["line"].as_u64().unwrap(),
                d["col"].as_u64().unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

/// `verify`'s findings on `definition.json` as Neovim shows them:
/// (code, line, column), sorted.
fn on_definition(found: &[Finding]) -> Vec<(String, u64, u64)> {
    let mut out: Vec<(String, u64, u64)> = found
        .iter()
        .filter(|f| f.0 == "definition.json")
        .map(|f| (f.1.clone(), f.3[0], f.3[1]))
        .collect();
    out.sort();
    out
}

/// Neovim's own LSP client (the 0.7 API of Debian stable's Neovim, which
/// later versions keep; issue 36 item 11), headless, with the documented
/// 0.7 setup (`tests/lsp-client/nvim/e2e.lua`): the diagnostics of a clean
/// package (none), of an unsaved edit that opens an object (FD213) and of one
/// that adds a `$ref` equal `verify`'s on the same bytes saved; hover on
/// the `$ref` shows its target; the index code action applied and every
/// buffer saved leaves no diagnostic and a package `verify` passes.
fn neovim_client_sees_what_verify_sees() -> Result<(), Failed> {
    if let Some(why) = nvim_missing() {
        return Err(why.into());
    }
    let (tmp, pkg) = fixture_package();
    // `verify`'s side works on its own copy: Neovim saves into `pkg`.
    let (_pristine_tmp, pristine) = fixture_package();
    let original = std::fs::read_to_string(pkg.join("definition.json")).unwrap();
    let facts_path = tmp.path().join("facts.json");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lsp-client/nvim/e2e.lua");
    let out = Command::new("nvim")
        .args(["--headless", "--clean", "-n", "-u", "NONE", "-i", "NONE"])
        .arg("-c")
        .arg(format!("luafile {}", script.display()))
        .env("FP_BIN", bin())
        .env("FP_PKG", &pkg)
        .env("FP_OUT", &facts_path)
        .env("XDG_STATE_HOME", tmp.path().join("state"))
        .env("XDG_DATA_HOME", tmp.path().join("data"))
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("nvim: {e}"))?;
    let facts: Value = std::fs::read(&facts_path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .ok_or_else(|| {
            format!(
                "nvim wrote no facts ({}):\n{}{}",
                out.status,
                String::from_utf8_lossy(&out.stderr),
                String::from_utf8_lossy(&out.stdout)
            )
        })?;

    assert_eq!(nvim_codes(&facts, "opened"), Vec::new(), "{facts}");
    let scratch = tempfile::tempdir().unwrap();
    let opened = original.replacen(
        r#""additionalProperties":false"#,
        r#""additionalProperties":true"#,
        1,
    );
    let edited = nvim_codes(&facts, "edited");
    assert!(edited.iter().any(|c| c.0 == "FD213"), "{facts}");
    assert_eq!(
        edited,
        on_definition(&verify_saved(&pristine, &scratch.path().join("a"), &opened)),
        "{facts}"
    );
    let with_ref = with_local_ref(&original);
    assert_eq!(
        nvim_codes(&facts, "with_ref"),
        on_definition(&verify_saved(
            &pristine,
            &scratch.path().join("b"),
            &with_ref
        )),
        "{facts}"
    );
    let hover = facts["hover"].as_str().unwrap_or_default();
    assert!(hover.starts_with("/desiredSchema/$defs/n\n"), "{facts}");
    assert!(hover.contains(r#""type""#), "{facts}");
    assert!(
        facts["action"]
            .as_str()
            .is_some_and(|t| t.contains("package-index.json")),
        "{facts}"
    );
    assert_eq!(nvim_codes(&facts, "saved"), Vec::new(), "{facts}");
    assert_eq!(
        verify_findings(&pkg),
        Vec::new(),
        "saved by Neovim, verified"
    );
    let saved = std::fs::read_to_string(pkg.join("definition.json")).unwrap();
    assert!(saved.contains(r##""$ref":"#/$defs/n""##), "{saved}");
    Ok(())
}

/// A small package of the repository's fixtures, copied.
fn fixture_package() -> (tempfile::TempDir, PathBuf) {
    common::copy_package(
        &common::fixtures().join("packages/v1alpha1/example-store-1.0.0-f486d5e31632"),
    )
}

/// [`fixture_package`] with its definition's URI and text.
fn fixture_definition() -> (tempfile::TempDir, PathBuf, String, String) {
    let (tmp, pkg) = fixture_package();
    let path = pkg.join("definition.json");
    let text = std::fs::read_to_string(&path).unwrap();
    (tmp, pkg, uri_of(&path), text)
}

/// The fixture definition's `text` with a local `$ref`: a property `nick`
/// whose schema is `{"$ref": "#/$defs/n"}`, `n` a string schema.
fn with_local_ref(text: &str) -> String {
    text.replacen(
        r#""properties":{"name":{"#,
        r##""$defs":{"n":{"type":"string"}},"properties":{"nick":{"$ref":"#/$defs/n"},"name":{"##,
        1,
    )
}

/// A half-typed definition gets the strict reader's finding where the
/// text stops, as `verify` gives it for the same bytes; completing it
/// clears the file.
fn half_typed_buffer() -> Result<(), Failed> {
    let (tmp, pkg) = fixture_package();
    let def_path = pkg.join("definition.json");
    let original = std::fs::read_to_string(&def_path).unwrap();
    assert_eq!(verify_findings(&pkg), [], "the fixture verifies");
    let def = uri_of(&def_path);
    let mut c = Client::initialized();
    open_doc(&mut c, &def, &original);
    c.settle(&def);
    assert_eq!(c.findings(&pkg), []);
    assert_eq!(
        c.published.get(&def),
        Some(&Vec::new()),
        "an open file gets its (empty) list"
    );

    let cut = original.find("\"desiredSchema\"").unwrap() + 3;
    // The key goes on with non-ASCII text, then a token where `:` must be:
    // the finding's column counts UTF-16 units (`😀` is two).
    let half = format!("{}é😀\" x\n", &original[..cut]);
    change_doc(&mut c, &def, 2, &half);
    c.settle(&def);
    let expected = verify_saved(&pkg, &tmp.path().join("half"), &half);
    assert_eq!(c.findings(&pkg), expected);
    let strict = expected
        .iter()
        .find(|f| f.0 == "definition.json")
        .expect("a finding in the definition");
    assert!(
        ["FD011", "FD012", "FD020"].contains(&strict.1.as_str()),
        "the strict reader's finding: {expected:?}"
    );
    // Where the text stops: the line of the cut string.
    let cut_line = half[..cut].matches('\n').count() as u64;
    let column = half[..half.rfind('x').unwrap()]
        .rsplit('\n')
        .next()
        .unwrap()
        .encode_utf16()
        .count() as u64;
    assert_eq!((strict.3[0], strict.3[1]), (cut_line, column), "{strict:?}");

    change_doc(&mut c, &def, 3, &original);
    c.settle(&def);
    assert_eq!(c.findings(&pkg), [], "every file is cleared");
    c.stop();
    Ok(())
}

/// `verify`'s findings for a copy of the package at `pkg` (made at
/// `scratch`) whose `definition.json` holds `bytes` (any bytes).
fn verify_saved_bytes(pkg: &Path, scratch: &Path, bytes: &[u8]) -> Vec<Finding> {
    common::copy_dir(pkg, scratch);
    std::fs::write(scratch.join("definition.json"), bytes).unwrap();
    verify_findings(scratch)
}

/// A text synchronisation body for `uri` whose text is `text` with each
/// U+E000 written as the JSON escape `escape` (`\ud800`: a lone surrogate,
/// which no Rust string, and so no `json!` value, can hold).
fn sync_body(method: &str, uri: &str, text: &str, escape: &str) -> Vec<u8> {
    let params = if method == "textDocument/didOpen" {
        json!({"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}})
    } else {
        json!({"textDocument": {"uri": uri, "version": 9}, "contentChanges": [{"text": text}]})
    };
    let m = json!({"jsonrpc": "2.0", "method": method, "params": params});
    m.to_string().replace('\u{E000}', escape).into_bytes()
}

/// Issue 36 item 13: a buffer holding a lone surrogate (a `\ud800` escape
/// in the JSON-RPC text, which no Rust string holds) is no longer dropped
/// whole: it is verified as a file holding that character (its WTF-8
/// bytes) is, so the definition gets `verify`'s invalid-UTF-8 finding at
/// the surrogate (one UTF-16 unit wide) with a note naming it, and the
/// rest of the package is verified from the buffer; no parse error is
/// answered. The same through `didOpen`. A `\ud800` escape in the
/// document's own text (legal JSON, not I-JSON) gets `verify`'s finding
/// for it. Near misses: a surrogate pair, in the JSON-RPC text or in the
/// document's, is a character like any other.
fn lone_surrogate_in_a_buffer_is_a_finding() -> Result<(), Failed> {
    let (tmp, pkg, def, original) = fixture_definition();
    let mut c = Client::initialized();
    open_doc(&mut c, &def, &original);
    c.settle(&def);
    assert_eq!(c.findings(&pkg), []);
    // In a schema's description, where any character is allowed.
    let marked = original.replacen(
        r#""additionalProperties":false"#,
        "\"description\":\"ba\u{E000}sic\",\"additionalProperties\":false",
        1,
    );
    assert_ne!(marked, original);

    let lone = sync_body("textDocument/didChange", &def, &marked, r"\ud800");
    assert!(
        serde_json::from_slice::<Value>(&lone).is_err(),
        "serde refuses it"
    );
    c.send_raw(&lone);
    c.settle(&def);
    let wtf8 = marked.replace('\u{E000}', "\u{FFFD}").into_bytes();
    let at = marked.find('\u{E000}').unwrap();
    let mut bytes = wtf8.clone();
    bytes[at..at + 3].copy_from_slice(b"\xED\xA0\x80");
    let expected = verify_saved_bytes(&pkg, &tmp.path().join("lone"), &bytes);
    let found = c.findings(&pkg);
    assert_eq!(found, expected);
    let column = marked[..at].encode_utf16().count() as u64;
    let utf8 = found
        .iter()
        .find(|f| f.0 == "definition.json")
        .expect("a finding in the definition");
    assert_eq!(utf8.1, "FD011", "invalid-utf8: {found:?}");
    assert_eq!(utf8.3, [0, column, 0, column + 1], "{utf8:?}");
    let shown = &c.published[&def][0];
    let notes = shown["relatedInformation"].to_string();
    assert!(notes.contains("lone surrogate U+D800"), "{shown}");

    // Through didOpen: the same.
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": def}}),
    );
    c.send_raw(&sync_body("textDocument/didOpen", &def, &marked, r"\ud800"));
    c.settle(&def);
    assert_eq!(c.findings(&pkg), expected);

    // Near miss: a surrogate pair in the JSON-RPC text is one character.
    let pair = sync_body("textDocument/didChange", &def, &marked, r"\ud83d\ude00");
    c.send_raw(&pair);
    c.settle(&def);
    let paired = marked.replace('\u{E000}', "😀");
    let expected = verify_saved(&pkg, &tmp.path().join("pair"), &paired);
    assert!(
        !expected.iter().any(|f| f.0 == "definition.json"),
        "{expected:?}"
    );
    assert_eq!(c.findings(&pkg), expected);

    // The escape in the document's own text: verify's finding for it;
    // near miss: an escaped pair there.
    for (escape, refused) in [(r"\\ud800", true), (r"\\ud83d\\ude00", false)] {
        let body = sync_body("textDocument/didChange", &def, &marked, escape);
        c.send_raw(&body);
        c.settle(&def);
        let text = marked.replace('\u{E000}', &escape.replace(r"\\", r"\"));
        let expected = verify_saved(&pkg, &tmp.path().join(format!("esc{refused}")), &text);
        assert_eq!(
            expected.iter().any(|f| f.0 == "definition.json"),
            refused,
            "{expected:?}"
        );
        assert_eq!(c.findings(&pkg), expected);
    }
    change_doc(&mut c, &def, 20, &original);
    c.settle(&def);
    assert_eq!(c.findings(&pkg), []);
    c.stop();
    Ok(())
}

/// Breaker F8: a request whose id is a number LSP's 32-bit integer cannot
/// hold (`3.5`, a 30-digit integer) gets -32600 Invalid Request with a
/// null id, as an object id does (it used to read as a notification and
/// get no answer at all); an id with no method gets -32600 saying "a
/// request needs a method" (not serde's internals). Near misses: the ids
/// -1 and "x" are answered normally, with their id.
fn request_ids_the_server_cannot_hold_are_answered() -> Result<(), Failed> {
    let mut c = Client::initialized();
    for id in ["3.5", "123456789012345678901234567890", "2147483648", "1.0"] {
        let body =
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"textDocument/hover","params":{{}}}}"#);
        c.send_raw(body.as_bytes());
        let r = c.next_reply();
        assert_eq!(r["error"]["code"], -32600, "id {id}: {r}");
        assert_eq!(r["id"], Value::Null, "id {id}: {r}");
    }
    c.send_raw(br#"{"jsonrpc":"2.0","id":7}"#);
    let r = c.next_reply();
    assert_eq!(
        (&r["error"]["code"], &r["id"]),
        (&json!(-32600), &json!(7)),
        "{r}"
    );
    let message = r["error"]["message"].as_str().unwrap();
    assert!(message.contains("a request needs a method"), "{r}");
    assert!(!message.contains("untagged"), "{r}");
    // Near misses.
    c.send_raw(br#"{"jsonrpc":"2.0","id":-1,"method":"foo/bar"}"#);
    let r = c.next_reply();
    assert_eq!(
        (&r["error"]["code"], &r["id"]),
        (&json!(-32601), &json!(-1)),
        "{r}"
    );
    c.send_raw(
        br#"{"jsonrpc":"2.0","id":"x","method":"textDocument/hover","params":{"textDocument":{"uri":"file:///nowhere/a.json"},"position":{"line":0,"character":0}}}"#,
    );
    let r = c.next_reply();
    assert_eq!((&r["result"], &r["id"]), (&Value::Null, &json!("x")), "{r}");
    assert!(r.get("error").is_none(), "{r}");
    c.stop();
    Ok(())
}

/// Malformed input and unknown or misplaced requests get JSON-RPC errors;
/// the server keeps serving and exits cleanly afterwards.
fn malformed_input_does_not_stop_the_server() -> Result<(), Failed> {
    let (_tmp, pkg) = fixture_package();
    let mut c = Client::start();
    // Before `initialize`: refused, not answered with a result.
    let r = c.request("textDocument/hover", json!({}));
    assert_eq!(r["error"]["code"], -32002, "{r}");
    c.initialize();

    // Invalid JSON: a parse error without an id.
    c.send_raw(b"{\"jsonrpc\": \"2.0\", \"id\": 9, ");
    let r = c.next_reply();
    assert_eq!(r["error"]["code"], -32700, "{r}");
    assert_eq!(r["id"], Value::Null);
    // A header without Content-Length.
    c.write(b"Content-Type: x\r\n\r\n");
    let r = c.next_reply();
    assert_eq!(r["error"]["code"], -32700, "{r}");
    // JSON that is no JSON-RPC message: invalid request, with its id.
    c.send_raw(br#"{"jsonrpc": "2.0", "id": 77, "method": 5}"#);
    let r = c.next_reply();
    assert_eq!(
        (&r["error"]["code"], &r["id"]),
        (&json!(-32600), &json!(77)),
        "{r}"
    );
    // An unknown method.
    let r = c.request("textDocument/unknownThing", json!({}));
    assert_eq!(r["error"]["code"], -32601, "{r}");
    // A known method with parameters of the wrong shape.
    let r = c.request("textDocument/hover", json!({"textDocument": 3}));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    // Notifications with bad parameters, or unknown ones, get no reply.
    c.notify("textDocument/didOpen", json!({"nope": true}));
    c.notify("$/somethingElse", json!(null));

    // Out-of-range positions in an open document: no hover, no crash.
    let def = uri_of(&pkg.join("definition.json"));
    let text = std::fs::read_to_string(pkg.join("definition.json")).unwrap();
    open_doc(&mut c, &def, &text);
    for (line, character) in [
        (100_000, 0),
        (0, 100_000),
        (u64::from(u32::MAX), u64::from(u32::MAX)),
    ] {
        let r = c.hover(&def, line, character);
        assert_eq!(r["result"], Value::Null, "{r}");
    }
    // A document that is not open.
    let r = c.hover("file:///nowhere/definition.json", 0, 0);
    assert_eq!(r["result"], Value::Null, "{r}");
    // A code in the text is explained wherever it is (here in a file of
    // no package, so no diagnostic range is involved).
    let notes_path = pkg.parent().unwrap().join("notes.txt");
    let notes = uri_of(&notes_path);
    let text = "see FD213 here\nand FD2134 there\n";
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": notes, "languageId": "plaintext", "version": 1, "text": text}}),
    );
    let r = c.hover(&notes, 0, 5);
    assert_eq!(r["result"]["contents"]["value"], explain("FD213"), "{r}");
    assert_eq!(r["result"]["range"]["start"]["character"], 4, "{r}");
    assert_eq!(r["result"]["range"]["end"]["character"], 9, "{r}");
    // Near misses: a longer word that starts like a code, a plain word.
    for character in [6, 1] {
        let r = c.hover(&notes, 1, character);
        assert_eq!(r["result"], Value::Null, "{r}");
    }
    assert!(
        c.published.get(&notes).is_none_or(|l| l.is_empty()),
        "no findings for a file of no package"
    );

    // After shutdown every request is refused; exit ends with status 0.
    let r = c.request("shutdown", Value::Null);
    assert_eq!(r["result"], Value::Null, "{r}");
    let r = c.request("textDocument/hover", json!({}));
    assert_eq!(r["error"]["code"], -32600, "{r}");
    c.notify("exit", Value::Null);
    let start = Instant::now();
    while c.child.try_wait().unwrap().is_none() {
        assert!(start.elapsed() < WAIT, "the server did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(c.child.try_wait().unwrap().unwrap().success());
    Ok(())
}

/// `exit` without `shutdown` ends the server with status 1 (LSP 3.17), and
/// so does the end of its input.
fn exit_without_shutdown_is_status_1() -> Result<(), Failed> {
    for graceful in [true, false] {
        let mut c = Client::start();
        c.initialize();
        if graceful {
            c.notify("exit", Value::Null);
        } else {
            drop(c.stdin.take());
        }
        let start = Instant::now();
        let status = loop {
            if let Some(s) = c.child.try_wait().unwrap() {
                break s;
            }
            assert!(start.elapsed() < WAIT, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(status.code(), Some(1), "graceful {graceful}");
    }
    Ok(())
}

/// Go to definition: a fixture path of the definition and a path of the
/// index go to that file, a local `$ref` to its target schema (whose hover
/// shows it); a near miss (a plain string) goes nowhere.
fn definition_follows_paths_and_refs() -> Result<(), Failed> {
    let (_tmp, pkg, def, original) = fixture_definition();
    let index = uri_of(&pkg.join("package-index.json"));
    let with_ref = with_local_ref(&original);
    assert_ne!(with_ref, original);
    let mut c = Client::initialized();
    for (uri, text) in [
        (&def, with_ref.clone()),
        (
            &index,
            std::fs::read_to_string(pkg.join("package-index.json")).unwrap(),
        ),
    ] {
        open_doc(&mut c, uri, &text);
    }
    let goto = |c: &mut Client, uri: &str, text: &str, needle: &str| {
        let at = text.find(needle).unwrap() + 2;
        let (line, character) = utf16_position(text.as_bytes(), at);
        c.request(
            "textDocument/definition",
            json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
        )
    };
    let r = goto(&mut c, &def, &with_ref, "fixtures/desired.json");
    assert_eq!(
        r["result"]["uri"],
        uri_of(&pkg.join("fixtures/desired.json")),
        "{r}"
    );
    let index_text = std::fs::read_to_string(pkg.join("package-index.json")).unwrap();
    let r = goto(&mut c, &index, &index_text, "\"definition.json\"");
    assert_eq!(r["result"]["uri"], def, "an open file: {r}");
    let r = goto(&mut c, &def, &with_ref, "#/$defs/n");
    assert_eq!(r["result"]["uri"], def, "{r}");
    let target = with_ref.find(r#"{"type":"string"}"#).unwrap();
    let (line, character) = utf16_position(with_ref.as_bytes(), target);
    assert_eq!(
        (
            &r["result"]["range"]["start"]["line"],
            &r["result"]["range"]["start"]["character"]
        ),
        (&json!(line), &json!(character)),
        "{r}"
    );
    let at = with_ref.find("#/$defs/n").unwrap() + 2;
    let (line, character) = utf16_position(with_ref.as_bytes(), at);
    let h = c.hover(&def, line, character);
    let shown = h["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(shown.starts_with("/desiredSchema/$defs/n\n"), "{h}");
    assert!(shown.contains("\"type\": \"string\""), "{h}");
    // Near miss: a string that names nothing.
    let r = goto(&mut c, &def, &with_ref, "compatibility-candidate");
    assert_eq!(r["result"], Value::Null, "{r}");
    c.stop();
    Ok(())
}

/// The position (line, UTF-16 column) of an LSP position object.
fn pos(v: &Value) -> (u64, u64) {
    (
        v["line"].as_u64().unwrap(),
        v["character"].as_u64().unwrap(),
    )
}

/// `text` with the LSP text edits `edits` applied (non-overlapping).
fn apply_edits(text: &str, edits: &[Value]) -> String {
    let offset = |p: (u64, u64)| {
        (0..=text.len())
            .filter(|&i| text.is_char_boundary(i))
            .find(|&i| utf16_position(text.as_bytes(), i) == p)
            .unwrap_or_else(|| panic!("no offset for {p:?}"))
    };
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            (
                offset(pos(&e["range"]["start"])),
                offset(pos(&e["range"]["end"])),
                e["newText"].as_str().unwrap(),
            )
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_owned();
    for (start, end, new) in spans {
        out.replace_range(start..end, new);
    }
    out
}

/// The code actions for `range` of `uri`.
fn code_actions(c: &mut Client, uri: &str, range: Value, only: Option<&str>) -> Vec<Value> {
    let mut context = json!({"diagnostics": []});
    if let Some(k) = only {
        context["only"] = json!([k]);
    }
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": range, "context": context}),
    );
    r["result"]
        .as_array()
        .unwrap_or_else(|| panic!("a list of actions: {r}"))
        .clone()
}

fn open_doc(c: &mut Client, uri: &str, text: &str) {
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}),
    );
}

/// `verify`'s findings for a copy of the package at `pkg` (made at
/// `scratch`) whose `definition.json` is saved as `definition`.
fn verify_saved(pkg: &Path, scratch: &Path, definition: &str) -> Vec<Finding> {
    common::copy_dir(pkg, scratch);
    std::fs::write(scratch.join("definition.json"), definition).unwrap();
    verify_findings(scratch)
}

fn change_doc(c: &mut Client, uri: &str, version: u64, text: &str) {
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
    );
}

/// "Update package-index.json": after an unsaved edit of a fixture and of
/// the definition, the action's one workspace edit replaces the index (not
/// open: its file on disk) by what `index` writes; applied in the editor,
/// every finding goes, and saved, `verify` passes. A near miss: a package
/// whose index is up to date gets no such action.
fn index_action_updates_sizes_digests_and_schema_digest() -> Result<(), Failed> {
    let (tmp, pkg) = fixture_package();
    let def_path = pkg.join("definition.json");
    let fixture_path = pkg.join("fixtures/desired.json");
    let index_path = pkg.join("package-index.json");
    let (def, fixture, index) = (
        uri_of(&def_path),
        uri_of(&fixture_path),
        uri_of(&index_path),
    );
    let def_text = std::fs::read_to_string(&def_path).unwrap();
    let index_text = std::fs::read_to_string(&index_path).unwrap();
    let mut c = Client::offering(
        &["codeActionProvider", "codeActionKinds"],
        json!(["quickfix"]),
    );
    open_doc(&mut c, &def, &def_text);
    c.settle(&def);
    let everywhere =
        json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}});
    let titles = |acts: &[Value]| -> Vec<String> {
        acts.iter()
            .map(|a| a["title"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        titles(&code_actions(&mut c, &def, everywhere.clone(), None)),
        Vec::<String>::new(),
        "an up-to-date index gets no action"
    );

    // Unsaved edits: a fixture's bytes (size, digest) and the definition's
    // title (its schemaDigest).
    open_doc(&mut c, &fixture, "{\"name\": \"changed\"}\n");
    let edited_def = def_text.replace("Example portable store", "Example store, retitled");
    assert_ne!(edited_def, def_text);
    change_doc(&mut c, &def, 2, &edited_def);
    c.settle(&def);
    let stale = c.findings(&pkg);
    assert!(!stale.is_empty(), "a stale index has findings");
    let acts = code_actions(&mut c, &fixture, everywhere.clone(), None);
    assert_eq!(
        titles(&acts),
        ["Update package-index.json (sizes, digests, schemaDigest)"],
        "{acts:?}"
    );
    assert_eq!(acts[0]["kind"], "quickfix");
    let changes = acts[0]["edit"]["changes"].as_object().unwrap();
    assert_eq!(
        changes.keys().collect::<Vec<_>>(),
        [&index],
        "one edit, on the index"
    );
    let new_index = apply_edits(&index_text, changes[&index].as_array().unwrap());
    // `context.only` that excludes quick fixes: nothing.
    assert!(code_actions(&mut c, &fixture, everywhere.clone(), Some("refactor")).is_empty());

    // Exactly what `index` writes for the same files on disk.
    let scratch = tmp.path().join("indexed");
    common::copy_dir(&pkg, &scratch);
    std::fs::write(scratch.join("definition.json"), &edited_def).unwrap();
    std::fs::write(
        scratch.join("fixtures/desired.json"),
        "{\"name\": \"changed\"}\n",
    )
    .unwrap();
    succeeds("index", &scratch);
    assert_eq!(
        new_index,
        std::fs::read_to_string(scratch.join("package-index.json")).unwrap()
    );

    // Applied in the editor (unsaved): every finding goes.
    open_doc(&mut c, &index, &new_index);
    c.settle(&def);
    assert_eq!(c.findings(&pkg), [], "the package verifies in memory");
    assert!(code_actions(&mut c, &index, everywhere, None).is_empty());
    // Saved: `verify` passes.
    std::fs::write(&def_path, &edited_def).unwrap();
    std::fs::write(&fixture_path, "{\"name\": \"changed\"}\n").unwrap();
    std::fs::write(&index_path, &new_index).unwrap();
    assert_eq!(verify_findings(&pkg), []);
    succeeds("verify", &pkg);
    c.stop();
    Ok(())
}

/// "Close this object" where FD213 fires: absent `additionalProperties`
/// gets the member added, `true` becomes `false`; applying the edit makes
/// FD213 vanish. Near misses: a range away from the finding gets no such
/// action, and no action renames a forbidden field.
fn close_object_action_makes_fd213_vanish() -> Result<(), Failed> {
    let (_tmp, pkg) = fixture_package();
    let def_path = pkg.join("definition.json");
    let def = uri_of(&def_path);
    let original = std::fs::read_to_string(&def_path).unwrap();
    let closed = r#""additionalProperties":false,"properties":{"endpoint""#;
    for (open, label) in [
        (r#""properties":{"endpoint""#, "absent"),
        (
            r#""additionalProperties":true,"properties":{"endpoint""#,
            "true",
        ),
    ] {
        let text = original.replacen(closed, open, 1);
        assert_ne!(text, original);
        let mut c = Client::start();
        c.initialize();
        open_doc(&mut c, &def, &text);
        c.settle(&def);
        let found = c.findings(&pkg);
        let fd213 = found
            .iter()
            .find(|f| f.1 == "FD213")
            .unwrap_or_else(|| panic!("{label}: FD213 fires: {found:?}"));
        let r = fd213.3;
        let range = json!({"start": {"line": r[0], "character": r[1]}, "end": {"line": r[0], "character": r[1]}});
        let acts = code_actions(&mut c, &def, range, None);
        let close: Vec<&Value> = acts
            .iter()
            .filter(|a| {
                a["title"]
                    .as_str()
                    .unwrap()
                    .starts_with("Close this object")
            })
            .collect();
        assert_eq!(close.len(), 1, "{label}: {acts:?}");
        assert_eq!(close[0]["diagnostics"][0]["code"], "FD213", "{label}");
        let edits = close[0]["edit"]["changes"][&def].as_array().unwrap();
        let fixed = apply_edits(&text, edits);
        assert!(
            fixed.contains(r#""additionalProperties": false"#)
                || fixed.contains(r#""additionalProperties":false"#),
            "{label}: {fixed}"
        );
        change_doc(&mut c, &def, 2, &fixed);
        c.settle(&def);
        let now = c.findings(&pkg);
        assert!(!now.iter().any(|f| f.1 == "FD213"), "{label}: {now:?}");
        // Near miss: a range far from the finding (line 0 of a one-line
        // file, but before it) offers no close action.
        change_doc(&mut c, &def, 3, &text);
        c.settle(&def);
        let before =
            json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}});
        let acts = code_actions(&mut c, &def, before, None);
        assert!(
            acts.iter().all(|a| !a["title"]
                .as_str()
                .unwrap()
                .starts_with("Close this object")),
            "{label}: {acts:?}"
        );
        c.stop();
    }
    // A forbidden field is not renamed.
    let text = original.replacen(
        r#""properties":{"name":{"#,
        r#""properties":{"password":{"type":"string"},"name":{"#,
        1,
    );
    let mut c = Client::initialized();
    open_doc(&mut c, &def, &text);
    c.settle(&def);
    let found = c.findings(&pkg);
    assert!(
        found.iter().any(|f| f.1 == "FD300"),
        "a forbidden field: {found:?}"
    );
    let all =
        json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 100000}});
    let acts = code_actions(&mut c, &def, all, None);
    assert!(
        acts.iter().all(|a| a["diagnostics"]
            .as_array()
            .is_none_or(|d| d.iter().all(|d| d["code"] == "FD213"))),
        "{acts:?}"
    );
    c.stop();
    Ok(())
}

/// A package with 80,000 findings in one file (a fixture of 80,000
/// forbidden member names, as `benches/gen_findings.py` writes it, here an
/// unsaved buffer): the file is sent the first 1,000 findings, each one of
/// `verify`'s, and one last diagnostic that says how many more there are.
fn eighty_thousand_findings_are_capped_and_counted() -> Result<(), Failed> {
    const COUNT: usize = 80_000;
    let (tmp, pkg) = fixture_package();
    let fixture_path = pkg.join("fixtures/desired.json");
    let fixture = uri_of(&fixture_path);
    let lines: Vec<String> = std::iter::once("  \"name\": \"x\"".to_owned())
        .chain((0..COUNT).map(|i| format!("  \"password{i}\": {i}")))
        .collect();
    let text = format!("{{\n{}\n}}\n", lines.join(",\n"));
    // What `verify` gives for the saved package.
    let scratch = tmp.path().join("many");
    common::copy_dir(&pkg, &scratch);
    std::fs::write(scratch.join("fixtures/desired.json"), &text).unwrap();
    let all: Vec<Finding> = verify_findings(&scratch)
        .into_iter()
        .filter(|f| f.0 == "fixtures/desired.json")
        .collect();
    assert_eq!(all.iter().filter(|f| f.1 == "FD300").count(), COUNT);
    let omitted = all.len() - 1000;
    let mut c = Client::initialized();
    open_doc(&mut c, &fixture, &text);
    c.settle(&fixture);
    let sent = c.published[&fixture].clone();
    assert_eq!(sent.len(), 1001, "1,000 findings and the count of the rest");
    let last = &sent[1000];
    assert_eq!(
        last["message"],
        format!("{omitted} more findings in this file are not shown (the editor is sent at most 1000 per file); `form-package verify` on this package lists them all")
    );
    assert_eq!(last["data"]["omitted"], omitted);
    assert!(last.get("code").is_none(), "{last}");
    let shown: Vec<Finding> = c
        .findings(&pkg)
        .into_iter()
        .filter(|f| f.0 == "fixtures/desired.json" && !f.1.is_empty())
        .collect();
    assert_eq!(shown.len(), 1000);
    let all: std::collections::BTreeSet<&Finding> = all.iter().collect();
    assert!(
        shown.iter().all(|f| all.contains(f)),
        "each one of verify's"
    );
    // Near miss: back to a valid fixture, the file is cleared, no count.
    change_doc(&mut c, &fixture, 2, "{\"name\": \"x\"}\n");
    c.settle(&fixture);
    assert_eq!(c.published[&fixture], Vec::<Value>::new());
    c.stop();
    Ok(())
}

/// While a buffer is half-typed (an unclosed brace, a trailing comma, a
/// value missing), hover and go to definition answer from its last text
/// that parsed, positions carried over the edit; where the cursor is in
/// the changed text itself, nothing.
fn last_good_text_serves_hover_and_definition() -> Result<(), Failed> {
    let (_tmp, pkg, def, original) = fixture_definition();
    let good = with_local_ref(&original);
    let mut c = Client::initialized();
    open_doc(&mut c, &def, &good);
    c.settle(&def);
    let at = |text: &str, needle: &str| {
        let (line, character) = utf16_position(text.as_bytes(), text.find(needle).unwrap() + 2);
        json!({"line": line, "character": character})
    };
    // Three half-typed texts: a member without a value inserted before
    // the `$ref`, a trailing comma after it, the text cut (unclosed) after it.
    let cut = good.find("\"name\":{").unwrap();
    let halves = [
        good.replacen(r#"{"apiVersion""#, r#"{"x": , "apiVersion""#, 1),
        good.replacen(r##""#/$defs/n"}"##, r##""#/$defs/n",}"##, 1),
        good[..cut].to_owned(),
    ];
    for (v, half) in halves.iter().enumerate() {
        change_doc(&mut c, &def, v as u64 + 2, half);
        c.settle(&def);
        // The strict reader's finding is what the file shows.
        let shown: Vec<Finding> = c.findings(&pkg);
        assert!(
            shown
                .iter()
                .any(|f| f.0 == "definition.json" && f.1.as_str() < "FD100"),
            "{v}: {shown:?}"
        );
        let r = c.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": def}, "position": at(half, "#/$defs/n")}),
        );
        let value = r["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_default();
        assert!(value.starts_with("/desiredSchema/$defs/n\n"), "{v}: {r}");
        let r = c.request(
            "textDocument/definition",
            json!({"textDocument": {"uri": def}, "position": at(half, "#/$defs/n")}),
        );
        assert_eq!(r["result"]["uri"], def, "{v}: {r}");
        let target = half.find(r#"{"type":"string"}"#).unwrap();
        let (line, character) = utf16_position(half.as_bytes(), target);
        assert_eq!(
            pos(&r["result"]["range"]["start"]),
            (line, character),
            "{v}: the target in the current text: {r}"
        );
        let r = c.request(
            "textDocument/definition",
            json!({"textDocument": {"uri": def}, "position": at(half, "fixtures/desired.json")}),
        );
        assert_eq!(
            r["result"]["uri"],
            uri_of(&pkg.join("fixtures/desired.json")),
            "{v}: {r}"
        );
    }
    // Near miss: the cursor inside the text typed since: nothing.
    let half = &halves[0];
    let (line, character) = utf16_position(half.as_bytes(), half.find("\"x\"").unwrap() + 1);
    let r = c.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": def}, "position": {"line": line, "character": character}}),
    );
    assert_eq!(r["result"], Value::Null, "{r}");
    c.stop();
    Ok(())
}

/// Requests at positions and documents that do not exist, and changes to
/// documents never opened: an empty answer or nothing, and the server
/// serves on.
fn out_of_range_and_unknown_documents_are_answered_empty() -> Result<(), Failed> {
    let (_tmp, pkg, def, text) = fixture_definition();
    let mut c = Client::initialized();
    // Changes and closes of a document never opened are ignored.
    change_doc(&mut c, &def, 7, "{");
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": def}}),
    );
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": "file:///nowhere/x.json"}}),
    );
    open_doc(&mut c, &def, &text);
    c.settle(&def);
    assert_eq!(c.findings(&pkg), [], "the ignored change did not stick");
    let far = [
        (100_000, 0),
        (0, 100_000),
        (u64::from(u32::MAX), u64::from(u32::MAX)),
    ];
    for uri in [
        def.as_str(),
        "file:///nowhere/definition.json",
        "untitled:Untitled-1",
    ] {
        for (line, character) in far {
            let p = json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}});
            let r = c.request("textDocument/definition", p.clone());
            assert_eq!(r["result"], Value::Null, "{uri} {line}:{character}: {r}");
            let r = c.request("textDocument/hover", p);
            assert_eq!(r["result"], Value::Null, "{uri} {line}:{character}: {r}");
            let range = json!({"start": {"line": line, "character": character}, "end": {"line": line, "character": character}});
            assert_eq!(code_actions(&mut c, uri, range, None), Vec::<Value>::new());
        }
    }
    // A range whose end is before its start, on an open document.
    let backwards =
        json!({"start": {"line": 0, "character": 9}, "end": {"line": 0, "character": 1}});
    assert_eq!(
        code_actions(&mut c, &def, backwards, None),
        Vec::<Value>::new()
    );
    // A change without content is ignored; a request without its
    // parameters gets InvalidParams.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": def, "version": 2}, "contentChanges": []}),
    );
    c.refuses_without_position("textDocument/codeAction", &def);
    c.stop();
    Ok(())
}

/// A reference schema (decision 0015) with a required-interface contract.
const REFERENCE: &str = r#"{"type":"object","additionalProperties":false,"required":["apiVersion","kind","name"],"x-takoform-required-interface":{"apiVersion":"interfaces.takoform.com/v1alpha1","name":"edge.kv","version":"1.0.0","schemaDigest":"sha256:1db93de87b25b5feedb380cdcf3ac10e0ff81f0a005ca17bc11ae9e416201ebe"},"properties":{"apiVersion":{"const":"stores.takoform.com/v1"},"kind":{"const":"Store"},"name":{"type":"string"}}}"#;

/// Hover on a relation: its pointer, target, binding, required and
/// contract, as `form-package relations` derives them; on `schemaDigest`
/// in the index: whether it matches the definition as it stands in the
/// editor, before and after an unsaved edit, and when it does not parse.
fn hover_on_a_relation_and_on_schema_digest() -> Result<(), Failed> {
    let (tmp, pkg, def, original) = fixture_definition();
    let index = uri_of(&pkg.join("package-index.json"));
    let index_text = std::fs::read_to_string(pkg.join("package-index.json")).unwrap();
    let mut c = Client::initialized();
    open_doc(&mut c, &def, &original);
    open_doc(&mut c, &index, &index_text);
    let hover_at = |c: &mut Client, uri: &str, text: &str, needle: &str| {
        let (line, character) = utf16_position(text.as_bytes(), text.find(needle).unwrap() + 1);
        let r = c.hover(uri, line, character);
        r["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    let digest = |dir: &Path| {
        let v: Value =
            serde_json::from_slice(&std::fs::read(dir.join("package-index.json")).unwrap())
                .unwrap();
        v["formRef"]["schemaDigest"].as_str().unwrap().to_owned()
    };
    let listed = digest(&pkg);
    let shown = hover_at(&mut c, &index, &index_text, "schemaDigest");
    assert_eq!(
        shown,
        format!("schemaDigest matches definition.json as it stands in the editor ({listed}, the SHA-256 of its RFC 8785 form)")
    );

    // An unsaved edit: a relation appears in the definition.
    let with_ref = original.replacen(
        r#""properties":{"name":{"#,
        &format!(r#""properties":{{"store":{REFERENCE},"name":{{"#),
        1,
    );
    assert_ne!(with_ref, original);
    change_doc(&mut c, &def, 2, &with_ref);
    c.settle(&def);
    let shown = hover_at(&mut c, &def, &with_ref, "edge.kv");
    assert_eq!(
        shown,
        "relation /store (decision 0015)\ntarget: stores.takoform.com/v1/Store\nbinding: -\nrequired: no\ntarget contract: interface: edge.kv@1.0.0"
    );
    // The same relation `relations` derives from the saved definition.
    let scratch = tmp.path().join("edited");
    common::copy_dir(&pkg, &scratch);
    std::fs::write(scratch.join("definition.json"), &with_ref).unwrap();
    let out = Command::new(bin())
        .args(["relations", "--format", "json"])
        .arg(&scratch)
        .output()
        .unwrap();
    let derived: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(derived["relations"][0]["pointer"], "/store", "{derived}");
    assert_eq!(
        derived["relations"][0]["requiredInterface"]["name"],
        "edge.kv"
    );
    // Near miss: outside the reference, no relation.
    let shown = hover_at(&mut c, &def, &with_ref, "maxLength");
    assert!(!shown.starts_with("relation"), "{shown}");

    // The index's schemaDigest no longer matches: the hover says so, with
    // the digest `index` writes, and explains the finding there (FD123).
    succeeds("index", &scratch);
    let now = digest(&scratch);
    let shown = hover_at(&mut c, &index, &index_text, listed.as_str());
    assert!(
        shown.starts_with(&format!(
            "schemaDigest does not match definition.json as it stands in the editor:\n  index:      {listed}\n  definition: {now} (SHA-256 of its RFC 8785 form)\n"
        )),
        "{shown}"
    );
    assert!(shown.ends_with(&explain("FD123")), "{shown}");
    // Half-typed definition: no digest to compare.
    change_doc(&mut c, &def, 3, &with_ref[..40]);
    let shown = hover_at(&mut c, &index, &index_text, "schemaDigest");
    assert!(
        shown.starts_with(&format!("schemaDigest {listed}: definition.json as it stands in the editor is not strict I-JSON")),
        "{shown}"
    );
    c.stop();
    Ok(())
}

/// A Binding or Interface Definition in no package gets what `check`
/// gives that document (its published schema: FD631), from the buffer; a
/// half-typed one the strict reader's finding; closed, it is cleared.
/// Near miss: another JSON document in no package gets nothing.
fn lone_interface_definition_gets_checks_findings() -> Result<(), Failed> {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("contracts");
    std::fs::create_dir(&dir).unwrap();
    let path = dir.join("iface.json");
    let uri = uri_of(&path);
    let text = r#"{"apiVersion":"interfaces.takoform.com/v1alpha1","kind":"InterfaceDefinition","name":"x","version":"1.0.0"}"#;
    let mut c = Client::initialized();
    open_doc(&mut c, &uri, text);
    c.settle(&uri);
    // What `check` gives for the same bytes saved.
    std::fs::write(&path, text).unwrap();
    let out = Command::new(bin())
        .args(["check", "--format", "json", "iface.json"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let expected = report_findings(&out.stdout, &dir);
    assert!(expected.iter().any(|f| f.1 == "FD631"), "{expected:?}");
    assert_eq!(c.findings(&dir), expected);
    // Half-typed: the strict reader's finding.
    change_doc(&mut c, &uri, 2, &text[..60]);
    c.settle(&uri);
    let now = c.findings(&dir);
    assert!(now.len() == 1 && now[0].1.as_str() < "FD100", "{now:?}");
    // Closed: cleared.
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    let other = dir.join("other.json");
    let other_uri = uri_of(&other);
    open_doc(
        &mut c,
        &other_uri,
        r#"{"apiVersion": "x/v1", "kind": "Thing"}"#,
    );
    c.settle(&other_uri);
    assert_eq!(c.published[&uri], Vec::<Value>::new(), "cleared on close");
    assert!(
        !c.published.contains_key(&other_uri),
        "another document in no package gets nothing"
    );
    c.stop();
    Ok(())
}

/// The real corpus package of the completion tests (a copy): a v1beta1
/// Worker Version with `immutableFields`, a fixture list and 16 fixtures.
fn completion_package() -> (tempfile::TempDir, PathBuf) {
    common::copy_package(
        &common::fixtures().join("packages/v1beta1/worker-version-0.1.0-54e6d25738e7"),
    )
}

/// A completion request at byte `offset` of `text` (the open document's
/// text), typed with `"` as the trigger; its items (`[]` for `null`).
fn complete_at(c: &mut Client, uri: &str, text: &str, offset: usize) -> Vec<Value> {
    let (line, character) = utf16_position(text.as_bytes(), offset);
    let r = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character},
               "context": {"triggerKind": 2, "triggerCharacter": "\""}}),
    );
    assert!(r.get("error").is_none(), "{r}");
    match &r["result"] {
        Value::Null => Vec::new(),
        v => v["items"].as_array().expect("a completion list").clone(),
    }
}

fn labels(items: &[Value]) -> Vec<&str> {
    let mut l: Vec<&str> = items.iter().map(|i| i["label"].as_str().unwrap()).collect();
    l.sort_unstable();
    l
}

/// Applies an item's text edit to `text` (lines end at LF here).
fn apply_item(text: &str, item: &Value) -> String {
    let offset = |p: &Value| {
        let (line, column) = pos(p);
        let start: usize = text
            .split_inclusive('\n')
            .take(line as usize)
            .map(str::len)
            .sum();
        let units = text[start..]
            .char_indices()
            .scan(0u64, |u, (i, ch)| {
                let at = (*u, i);
                *u += ch.len_utf16() as u64;
                Some(at)
            })
            .find(|(u, _)| *u == column)
            .map_or(text.len() - start, |(_, i)| i);
        start + units
    };
    let edit = &item["textEdit"];
    let (start, end) = (
        offset(&edit["range"]["start"]),
        offset(&edit["range"]["end"]),
    );
    let mut out = text.to_owned();
    out.replace_range(start..end, edit["newText"].as_str().unwrap());
    out
}

/// Completion in a real definition, each way it is offered: the members
/// the definition schema admits but those present (in a half-typed
/// buffer), this profile's keywords inside the desired schema, the
/// `immutableFields` pointers the desired schema has but those listed
/// (from the last good text while the buffer is cut short), the package's
/// files in a fixture path, a listed fixture's members and values by its
/// stage's schema; and the near misses: a member already there, a string
/// that is none of these, a package file the definition does not list, a
/// file in no package.
fn completion_offers_members_keywords_pointers_and_files() -> Result<(), Failed> {
    let (tmp, pkg) = completion_package();
    let def_path = pkg.join("definition.json");
    let original = std::fs::read_to_string(&def_path).unwrap();
    let def = uri_of(&def_path);
    let mut c = Client::offering(&["completionProvider", "triggerCharacters"], json!(["\""]));
    open_doc(&mut c, &def, &original);
    c.settle(&def);

    // 1. Members: a name begun on a new line of the root object (the
    // buffer does not parse), then finished by the item's edit.
    let at = original.find('{').unwrap() + 1;
    let half = format!("{}\n  \"{}", &original[..at], &original[at..]);
    change_doc(&mut c, &def, 2, &half);
    let items = complete_at(&mut c, &def, &half, at + 4);
    assert_eq!(
        labels(&items),
        ["observedSchema", "outputSchema", "providedInterfaces"],
        "the v1beta1 members the definition has not: {items:?}"
    );
    let observed = items
        .iter()
        .find(|i| i["label"] == "observedSchema")
        .unwrap();
    assert_eq!(observed["kind"], 10, "a property: {observed}");
    assert!(
        observed["detail"]
            .as_str()
            .unwrap()
            .contains("optional (form-definition-v1beta1.schema.json)"),
        "{observed}"
    );
    let done = apply_item(&half, observed);
    assert!(
        done.contains("{\n  \"observedSchema\": \n  \"apiVersion\""),
        "{}",
        &done[..80]
    );

    // 2. Keywords inside an inline schema: a name begun in the desired
    // schema's `worker` property schema.
    let worker = original.find("\"worker\": {").unwrap() + "\"worker\": {".len();
    let typed = format!("{}\"\", {}", &original[..worker], &original[worker..]);
    change_doc(&mut c, &def, 3, &typed);
    let items = complete_at(&mut c, &def, &typed, worker + 1);
    let got = labels(&items);
    for k in ["minProperties", "title", "$comment", "x-takoform-binding"] {
        assert!(got.contains(&k), "{k} is offered: {got:?}");
    }
    // Present already (the schema has them), refused by this profile, or
    // a property name (not a keyword).
    for k in [
        "type",
        "additionalProperties",
        "description",
        "x-takoform-required-interface",
        "patternProperties",
        "$id",
        "apiVersion",
    ] {
        assert!(!got.contains(&k), "{k} is not offered: {got:?}");
    }
    let kw = items
        .iter()
        .find(|i| i["label"] == "propertyNames")
        .unwrap();
    assert_eq!(kw["kind"], 14, "a keyword: {kw}");
    assert!(
        kw["documentation"]["value"]
            .as_str()
            .unwrap()
            .starts_with("FD215 map-key-policy: "),
        "the code's own text: {kw}"
    );
    assert_eq!(
        apply_item(&typed, kw),
        format!(
            "{}\"propertyNames\": , {}",
            &original[..worker],
            &original[worker..]
        )
    );

    // 3. immutableFields: the desired properties not yet listed, every one
    // of them while the buffer is cut short inside a new first item (the
    // last good text names them), all but the eleven listed after it in
    // the whole text.
    let list = original.find("\"immutableFields\": [").unwrap() + "\"immutableFields\": [".len();
    let cut = format!("{}\n    \"/b", &original[..list]);
    change_doc(&mut c, &def, 4, &cut);
    let all = complete_at(&mut c, &def, &cut, cut.len());
    let listed = [
        "/assets",
        "/bucketBindings",
        "/bundle",
        "/handlers",
        "/kvBindings",
        "/queueProducerBindings",
        "/requiredSensitiveVars",
        "/serviceBindings",
        "/sqliteBindings",
        "/vars",
        "/worker",
    ];
    let rest = [
        "/assets/bundle",
        "/assets/bundle/apiVersion",
        "/assets/bundle/kind",
        "/assets/bundle/name",
        "/assets/notFoundHandling",
        "/assets/runWorkerFirst",
        "/bundle/apiVersion",
        "/bundle/kind",
        "/bundle/name",
        "/worker/apiVersion",
        "/worker/kind",
        "/worker/name",
    ];
    let mut every: Vec<&str> = listed.iter().chain(&rest).copied().collect();
    every.sort_unstable();
    assert_eq!(
        labels(&all),
        every,
        "the desired schema's 23 property pointers"
    );
    let pointer = all.iter().find(|i| i["label"] == "/bundle").unwrap();
    assert_eq!(pointer["kind"], 18, "a reference: {pointer}");
    assert_eq!(
        apply_item(&cut, pointer),
        format!("{}\n    \"/bundle", &original[..list]),
        "the unclosed string's text is replaced"
    );
    let whole = format!("{}\"\", {}", &original[..list], &original[list..]);
    change_doc(&mut c, &def, 5, &whole);
    let items = complete_at(&mut c, &def, &whole, list + 1);
    assert_eq!(labels(&items), rest);
    let name = items.iter().find(|i| i["label"] == "/worker/name").unwrap();
    assert_eq!(
        apply_item(&whole, name),
        format!(
            "{}\"/worker/name\", {}",
            &original[..list],
            &original[list..]
        )
    );

    // 4. A fixture path: the package's files (disk and open buffers), not
    // the index or the definition.
    change_doc(&mut c, &def, 6, &original);
    let path_at = original.find("\"fixtures/desired.json\"").unwrap() + 10;
    let items = complete_at(&mut c, &def, &original, path_at);
    let mut files: Vec<String> = std::fs::read_dir(pkg.join("fixtures"))
        .unwrap()
        .map(|e| format!("fixtures/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    files.sort();
    assert_eq!(labels(&items), files, "the 16 fixtures");
    let f = items.iter().find(|i| i["label"] == "fixtures/vars.json");
    assert!(f.is_none(), "no such file");
    let neg = items
        .iter()
        .find(|i| i["label"] == "fixtures/negative-vars.json")
        .unwrap();
    assert_eq!(neg["kind"], 17, "a file: {neg}");
    let applied = apply_item(&original, neg);
    assert!(applied.contains("\"desiredPath\": \"fixtures/negative-vars.json\""));

    // Near misses: a member already present (root names but the three),
    // inside the title string, in a fixture, in a file in no package.
    let root_key = original.find("\"kind\"").unwrap() + 1;
    let items = complete_at(&mut c, &def, &original, root_key);
    assert!(
        !labels(&items).contains(&"apiVersion"),
        "{:?}",
        labels(&items)
    );
    assert!(
        labels(&items).contains(&"kind"),
        "the name under the cursor"
    );
    let title = original.find("\"Worker Version\"").unwrap() + 3;
    assert_eq!(
        complete_at(&mut c, &def, &original, title),
        Vec::<Value>::new()
    );

    // 5. A fixture the definition lists: its stage's schema (desired) at
    // the cursor's pointer, a member begun halfway (the buffer does not
    // parse) and a value of a closed set.
    let fixture_path = pkg.join("fixtures/desired.json");
    let fixture_text = std::fs::read_to_string(&fixture_path).unwrap();
    let fixture = uri_of(&fixture_path);
    open_doc(&mut c, &fixture, &fixture_text);
    let half = fixture_text.replace("\"runWorkerFirst\": true", "\"");
    change_doc(&mut c, &fixture, 2, &half);
    let at = half.find("\"\n  },").unwrap() + 1;
    let items = complete_at(&mut c, &fixture, &half, at);
    assert_eq!(
        labels(&items),
        ["runWorkerFirst"],
        "the one /assets member missing"
    );
    assert!(
        items[0]["detail"]
            .as_str()
            .unwrap()
            .starts_with("boolean, required"),
        "{}",
        items[0]
    );
    change_doc(&mut c, &fixture, 3, &fixture_text);
    let value = fixture_text.find("single_page_application").unwrap();
    let items = complete_at(&mut c, &fixture, &fixture_text, value);
    assert!(
        labels(&items).contains(&"none") && labels(&items).contains(&"single_page_application"),
        "the closed set of notFoundHandling: {:?}",
        labels(&items)
    );
    // Near misses: every member of the fixture's root is there; a JSON
    // file of the package the definition does not list.
    assert_eq!(
        complete_at(&mut c, &fixture, &fixture_text, 1),
        Vec::<Value>::new()
    );
    let notes_path = pkg.join("notes.json");
    std::fs::write(&notes_path, "{\"a\": 1, }").unwrap();
    let notes = uri_of(&notes_path);
    open_doc(&mut c, &notes, "{\"a\": 1, }");
    assert_eq!(
        complete_at(&mut c, &notes, "{\"a\": 1, }", 10),
        Vec::<Value>::new()
    );
    let lone_path = tmp.path().join("definition.json");
    std::fs::write(&lone_path, &original).unwrap();
    let lone = uri_of(&lone_path);
    open_doc(&mut c, &lone, &original);
    assert_eq!(
        complete_at(&mut c, &lone, &original, at + 1),
        Vec::<Value>::new()
    );
    c.stop();
    Ok(())
}

/// Completion at any position is answered, never a crash: out of range,
/// inside a UTF-16 surrogate pair, in an empty document, in a document
/// never opened.
fn completion_at_odd_positions_is_answered() -> Result<(), Failed> {
    let (_tmp, pkg) = completion_package();
    let def = uri_of(&pkg.join("definition.json"));
    let mut c = Client::initialized();
    let text = "{\"title\": \"😀\", \"";
    open_doc(&mut c, &def, text);
    let pair = text.find('😀').unwrap();
    let (line, character) = utf16_position(text.as_bytes(), pair);
    for (line, character) in [
        (line, character + 1),
        (0, 10_000),
        (10_000, 0),
        (u64::from(u32::MAX), u64::from(u32::MAX)),
    ] {
        let r = c.request(
            "textDocument/completion",
            json!({"textDocument": {"uri": def}, "position": {"line": line, "character": character}}),
        );
        assert_eq!(r["result"], Value::Null, "{line}:{character}: {r}");
    }
    // At the end, after the surrogate pair: the members.
    let items = complete_at(&mut c, &def, text, text.len());
    assert!(labels(&items).contains(&"desiredSchema"), "{items:?}");
    assert!(!labels(&items).contains(&"title"));
    change_doc(&mut c, &def, 2, "");
    assert_eq!(complete_at(&mut c, &def, "", 0), Vec::<Value>::new());
    let r = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": "file:///nowhere/definition.json"}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(r["result"], Value::Null, "{r}");
    c.refuses_without_position("textDocument/completion", &def);
    c.stop();
    Ok(())
}

/// This file's trials, run by the binary's `main`.
pub fn trials() -> Vec<libtest_mimic::Trial> {
    let corpus = common::corpus();
    let nvim = nvim_missing();
    if let Some(why) = &nvim {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but the Neovim client test cannot run: {why}"
        );
    }
    vec![
        Trial::test(
            "neovim_client_sees_what_verify_sees",
            neovim_client_sees_what_verify_sees,
        )
        .with_ignored_flag(nvim.is_some()),
        common::corpus_trial(
            "diagnostics_follow_the_buffer_on_a_corpus_package",
            &corpus,
            diagnostics_follow_the_buffer,
        ),
        Trial::test(
            "half_typed_buffer_gets_the_strict_readers_finding",
            half_typed_buffer,
        ),
        Trial::test(
            "the_disk_is_read_again_on_a_reported_change_not_per_keystroke",
            the_disk_is_read_again_on_a_reported_change_not_per_keystroke,
        ),
        Trial::test(
            "lone_surrogate_in_a_buffer_is_a_finding",
            lone_surrogate_in_a_buffer_is_a_finding,
        ),
        Trial::test(
            "request_ids_the_server_cannot_hold_are_answered",
            request_ids_the_server_cannot_hold_are_answered,
        ),
        Trial::test(
            "malformed_input_does_not_stop_the_server",
            malformed_input_does_not_stop_the_server,
        ),
        Trial::test(
            "exit_without_shutdown_is_status_1",
            exit_without_shutdown_is_status_1,
        ),
        Trial::test(
            "definition_follows_paths_and_refs",
            definition_follows_paths_and_refs,
        ),
        Trial::test(
            "index_action_updates_sizes_digests_and_schema_digest",
            index_action_updates_sizes_digests_and_schema_digest,
        ),
        Trial::test(
            "close_object_action_makes_fd213_vanish",
            close_object_action_makes_fd213_vanish,
        ),
        Trial::test(
            "hover_on_a_relation_and_on_schema_digest",
            hover_on_a_relation_and_on_schema_digest,
        ),
        Trial::test(
            "lone_interface_definition_gets_checks_findings",
            lone_interface_definition_gets_checks_findings,
        ),
        Trial::test(
            "eighty_thousand_findings_are_capped_and_counted",
            eighty_thousand_findings_are_capped_and_counted,
        ),
        Trial::test(
            "last_good_text_serves_hover_and_definition",
            last_good_text_serves_hover_and_definition,
        ),
        Trial::test(
            "out_of_range_and_unknown_documents_are_answered_empty",
            out_of_range_and_unknown_documents_are_answered_empty,
        ),
        Trial::test(
            "completion_offers_members_keywords_pointers_and_files",
            completion_offers_members_keywords_pointers_and_files,
        ),
        Trial::test(
            "completion_at_odd_positions_is_answered",
            completion_at_odd_positions_is_answered,
        ),
    ]
}

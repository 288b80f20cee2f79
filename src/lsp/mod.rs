//! `form-package lsp`: a language server for Form Package authors (issue
//! 24), on `lsp-server` + `lsp-types`, over any byte streams
//! ([`serve`]; the command passes standard input and output).
//!
//! What it does now:
//! - the lifecycle: `initialize` (capabilities: full text sync, hover,
//!   definition, code actions, completion; UTF-16 positions), `initialized`,
//!   `shutdown` (then every request is refused with `InvalidRequest`), `exit` (clean only after `shutdown`);
//!   a request before `initialize` gets `ServerNotInitialized`, an unknown
//!   request `MethodNotFound`, bad parameters `InvalidParams`; a malformed
//!   frame or body a JSON-RPC error ([`transport`]); nothing from the
//!   client stops the server but `exit` or the end of its input;
//! - diagnostics: an open file under a directory holding
//!   `package-index.json` (its `definition.json`, the index, a fixture,
//!   any file of the package) makes its package verified from the open
//!   buffers over the disk ([`analysis::analyze`]: the same checks as
//!   `verify`), after each open, change (no save needed), save and close;
//!   every finding is published on the file it names, open or not
//!   ([`analysis::diagnostics`] for the shape), every other open file of
//!   the package gets an empty list, and a file whose findings went away
//!   is cleared (an open file is sent its list after every verification,
//!   a file that is not open only when its list changed; an edit of a
//!   file the package's verification does not read, an unlisted one,
//!   verifies nothing and sends its list again). A half-typed buffer
//!   gets the strict reader's finding (`FD001`/`FD002`…) at the place it
//!   stops. Changes that arrive
//!   together are verified once, when the input queue is empty. A file is
//!   sent at most [`analysis::MAX_PER_FILE`] diagnostics, then one that
//!   says how many more there are ([`analysis::capped`]: never silently);
//! - bad input: while a buffer is not strict I-JSON, hover and go to
//!   definition read its last text that was ([`documents::Document::good_view`]),
//!   positions carried over the edit; a request that panics in the server
//!   (a bug) gets `InternalError` and the server goes on; a buffer whose
//!   text holds a lone surrogate (no UTF-8 form) is verified from its
//!   WTF-8 bytes, so the surrogate is `verify`'s invalid-UTF-8 finding at
//!   its place ([`surrogates`]);
//! - a Binding or Interface Definition in no package is checked on its
//!   own as `check` checks it ([`crate::document::check_document`]), from
//!   its buffer; any other file in no package gets nothing;
//! - hover: on a code (`FD213`) in any open document, or anywhere in the
//!   range of a published diagnostic, the code's `explain` text
//!   ([`crate::explain::explain`]); on a local `$ref`, the target's
//!   pointer and schema ([`navigate`]); inside a reference schema of the
//!   definition, its relation (decision 0015: pointer, target, binding,
//!   required, target contract, as `relations` derives it); on
//!   `/formRef/schemaDigest` of an index, whether it matches the
//!   definition as it stands in the editor (buffer over disk);
//! - go to definition: a local `$ref` to its target schema, a package path
//!   (a fixture path of the definition, a `files[].path` of the index) to
//!   that file;
//! - code actions (kind `quickfix`, [`actions`]): "update
//!   package-index.json" in any file of a package whose index `index`
//!   would change (computed from the buffers by `index`'s own library
//!   operation, one workspace edit replacing the index), and "close this
//!   object" on an FD213 finding (`"additionalProperties": false` added,
//!   or `true` made `false`). A forbidden field is never renamed.
//!
//! - completion ([`completion`], trigger character `"`): in a package's
//!   definition and index, a fixture it lists (by its stage's schema) and
//!   a lone Binding or Interface Definition, the
//!   member names the published schema admits there, the Draft 2020-12
//!   keywords this profile admits inside an inline schema, the
//!   `immutableFields` pointers the desired schema has, the package's
//!   files where a package path goes, the strings a closed set admits;
//!   found by a tolerant scan of a half-typed buffer and never verifying.
//!
//! - the disk: a package's files on disk are read once
//!   ([`analysis::DiskSnapshot`]) and again only when one of its files is
//!   opened, saved or closed, or the client reports files changed on disk
//!   (`workspace/didChangeWatchedFiles`, as clients send it for their
//!   file watchers); an edit is verified from the buffers over that
//!   snapshot, so a keystroke never walks the tree (a stray
//!   `package-index.json` at the top of a large tree costs one walk, and
//!   its refusal for too many files is found once). A package with no
//!   open file left drops its snapshot. An edit copies no file's bytes
//!   (the snapshot's and the buffers' are shared with the verified
//!   source) and parses its buffer once ([`documents::Document`]: the
//!   parse verification, hover, definition, code actions and completion
//!   all read).
//!
//! The request handlers are one file each under `handlers/` (hover,
//! definition, code actions, completion, initialize), each an `impl` of
//! the one `Server`; this file holds the message loop, the text
//! synchronisation and the verification that publishes.
//!
//! Not yet (issue 24): a `codeDescription` link (no published
//! documentation URL exists); verification off the message thread and
//! cancellation. The editor packages, the end-to-end client test and the
//! latency benchmark are in `editors/`, `tests/lsp/lsp_e2e.rs` and
//! `docs/src/benchmarks.md`.

pub mod actions;
pub mod analysis;
pub mod completion;
pub mod documents;
mod handlers;
pub mod navigate;
pub mod surrogates;
pub mod transport;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, Write};
use std::path::PathBuf;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::{
    CodeActionParams, CompletionParams, DidChangeTextDocumentParams, DidChangeWatchedFilesParams,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, DidSaveTextDocumentParams,
    GotoDefinitionParams, HoverParams, LogMessageParams, MessageType, PublishDiagnosticsParams,
    Uri,
};

use documents::Documents;

/// Serves one client on `input`/`output` until `exit` or the end of the
/// input. Returns `true` when the client sent `shutdown` and then `exit`
/// (the command exits 0), `false` otherwise (exit 1, as LSP 3.17 `exit`
/// asks).
pub fn serve<R, W>(input: R, output: W) -> bool
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (conn, writer) = transport::connect(input, output);
    let clean = Server::default().run(&conn);
    drop(conn);
    let _ = writer.join();
    clean
}

/// Where the lifecycle is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    /// Before `initialize`.
    #[default]
    Uninitialized,
    /// Serving.
    Running,
    /// After `shutdown`: only `exit` is accepted.
    ShutDown,
}

/// The server's state between messages.
#[derive(Debug, Default)]
struct Server {
    state: State,
    docs: Documents,
    /// Per package root: the files (package path → URI) that were last
    /// published with findings, to clear them when the findings go.
    published: BTreeMap<PathBuf, BTreeMap<String, Uri>>,
    /// Diagnostics last published, by URI text (hover reads them).
    shown: BTreeMap<String, Vec<lsp_types::Diagnostic>>,
    /// Packages to verify once the input queue is empty.
    dirty: BTreeSet<PathBuf>,
    /// The last analysis of each package root.
    analyses: BTreeMap<PathBuf, analysis::Analysis>,
    /// Each package's files as last read from disk (read again only when
    /// the root is in `reread`, never on a keystroke).
    disk: BTreeMap<PathBuf, analysis::DiskSnapshot>,
    /// Package roots whose disk is read again at their next verification:
    /// a file of theirs was opened, saved or closed, or changed on disk.
    reread: BTreeSet<PathBuf>,
    /// Open documents in no package to check on their own, by URI text.
    lone_dirty: BTreeMap<String, Uri>,
    /// Documents in no package last published with findings, by URI text.
    lone_shown: BTreeSet<String>,
    /// The index `index` would write, per package root, computed from its
    /// last analysis when a code action first asks (`None`: no update).
    index_updates: BTreeMap<PathBuf, Option<Vec<u8>>>,
    /// Edited buffers, by URI text, of files their package's verification
    /// does not read (FD018 `unlisted-file` in its last analysis): no edit
    /// of them can change a finding, so their package is not verified
    /// again; their last list is published again (`Server::touch`).
    unread_edits: BTreeMap<String, (PathBuf, Uri)>,
    /// How many times a package was verified (tests read it).
    verifications: u64,
}

impl Server {
    /// The message loop; see [`serve`] for the result.
    fn run(&mut self, conn: &Connection) -> bool {
        loop {
            let msg = if self.dirty.is_empty()
                && self.lone_dirty.is_empty()
                && self.unread_edits.is_empty()
            {
                match conn.receiver.recv() {
                    Ok(m) => m,
                    Err(_) => return false,
                }
            } else {
                match conn.receiver.try_recv() {
                    Ok(m) => m,
                    Err(e) if e.is_empty() => {
                        self.verify_dirty(conn);
                        continue;
                    }
                    Err(_) => return false,
                }
            };
            match msg {
                Message::Request(req) => {
                    let id = req.id.clone();
                    let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        self.request(conn, req)
                    }));
                    if answered.is_err() {
                        // A bug, never the client's fault: the request gets
                        // an error and the server goes on.
                        let reply = err(
                            id,
                            ErrorCode::InternalError,
                            "form-package: internal error while answering (a bug)",
                        );
                        let _ = conn.sender.send(Message::Response(reply));
                    }
                }
                Message::Notification(n) => {
                    if let Some(clean) = self.notification(n) {
                        return clean;
                    }
                }
                Message::Response(_) => {}
            }
        }
    }

    /// Answers one request.
    fn request(&mut self, conn: &Connection, req: Request) {
        let id = req.id.clone();
        let reply = match (self.state, req.method.as_str()) {
            (State::Uninitialized, "initialize") => {
                self.state = State::Running;
                ok(id, handlers::initialize::initialize_result())
            }
            (State::Uninitialized, _) => err(
                id,
                ErrorCode::ServerNotInitialized,
                "the server is not initialized",
            ),
            (State::ShutDown, _) => err(id, ErrorCode::InvalidRequest, "shutdown was requested"),
            (State::Running, "initialize") => {
                err(id, ErrorCode::InvalidRequest, "already initialized")
            }
            (State::Running, "shutdown") => {
                self.state = State::ShutDown;
                ok(id, serde_json::Value::Null)
            }
            (State::Running, "textDocument/hover") => {
                // Hover reads the findings: bring them up to date first.
                self.verify_dirty(conn);
                match serde_json::from_value::<HoverParams>(req.params) {
                    Ok(p) => ok(id, self.hover(&p)),
                    Err(e) => err(id, ErrorCode::InvalidParams, &e.to_string()),
                }
            }
            (State::Running, "textDocument/codeAction") => {
                // The actions are computed from the findings: bring them up
                // to date first.
                self.verify_dirty(conn);
                match serde_json::from_value::<CodeActionParams>(req.params) {
                    Ok(p) => ok(id, self.code_actions(&p)),
                    Err(e) => err(id, ErrorCode::InvalidParams, &e.to_string()),
                }
            }
            (State::Running, "textDocument/completion") => {
                // Computed from the buffer and the last analysis: never
                // verified first (a keystroke must not wait for `verify`).
                match serde_json::from_value::<CompletionParams>(req.params) {
                    Ok(p) => ok(id, self.completion(&p.text_document_position)),
                    Err(e) => err(id, ErrorCode::InvalidParams, &e.to_string()),
                }
            }
            (State::Running, "textDocument/definition") => {
                match serde_json::from_value::<GotoDefinitionParams>(req.params) {
                    Ok(p) => ok(id, self.definition(&p.text_document_position_params)),
                    Err(e) => err(id, ErrorCode::InvalidParams, &e.to_string()),
                }
            }
            (State::Running, m) => err(
                id,
                ErrorCode::MethodNotFound,
                &format!("unknown method {m:?}"),
            ),
        };
        let _ = conn.sender.send(Message::Response(reply));
    }

    /// Handles one notification; `Some(clean)` on `exit`.
    fn notification(&mut self, n: Notification) -> Option<bool> {
        if n.method == "exit" {
            return Some(self.state == State::ShutDown);
        }
        if self.state != State::Running {
            return None;
        }
        // Parameters that do not parse are ignored (a notification has no
        // reply to carry the error).
        match n.method.as_str() {
            "textDocument/didOpen" => {
                let lone = surrogates::listed(n.params.get("textDocument"));
                if let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) {
                    let uri = p.text_document.uri;
                    self.docs.open(uri.clone(), p.text_document.text, lone);
                    self.touch(&uri, true);
                }
            }
            "textDocument/didChange" => {
                let last = n
                    .params
                    .get("contentChanges")
                    .and_then(serde_json::Value::as_array)
                    .and_then(|c| c.last());
                let lone = surrogates::listed(last);
                if let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) {
                    // Full synchronisation: the last change is the text.
                    let uri = p.text_document.uri;
                    if let Some(c) = p.content_changes.into_iter().last() {
                        if self.docs.change(&uri, c.text, lone) {
                            self.touch(&uri, false);
                        }
                    }
                }
            }
            "textDocument/didSave" => {
                if let Ok(p) = serde_json::from_value::<DidSaveTextDocumentParams>(n.params) {
                    self.touch(&p.text_document.uri, true);
                }
            }
            "textDocument/didClose" => {
                if let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) {
                    let uri = p.text_document.uri;
                    // Its package is verified again from the disk.
                    self.touch(&uri, true);
                    self.docs.close(&uri);
                }
            }
            "workspace/didChangeWatchedFiles" => {
                if let Ok(p) = serde_json::from_value::<DidChangeWatchedFilesParams>(n.params) {
                    self.changed_on_disk(p.changes.iter().map(|c| &c.uri));
                }
            }
            _ => {}
        }
        None
    }

    /// Files changed on disk by another program (the client's file
    /// watcher): every package read so far that holds one is read again
    /// and verified.
    fn changed_on_disk<'a>(&mut self, uris: impl Iterator<Item = &'a Uri>) {
        for path in uris.filter_map(documents::file_path) {
            let roots: Vec<PathBuf> = self
                .disk
                .keys()
                .filter(|root| path.starts_with(root))
                .cloned()
                .collect();
            for root in roots {
                self.reread.insert(root.clone());
                self.dirty.insert(root);
            }
        }
    }

    /// The package root of an open document, if it is in one.
    fn root_of(&self, uri: &Uri) -> Option<PathBuf> {
        let path = self.docs.get(uri)?.path.clone()?;
        analysis::package_root(&path, |p| self.docs.by_path(p).is_some())
    }

    /// Marks the package of `uri` for verification; with `reread`, its
    /// files are read from disk again first (an open, a save, a close).
    ///
    /// An edit (no `reread`) of a file its package's last verification
    /// did not read (it found the file unlisted, FD018: `verify` reads only
    /// the files the index lists, and judges an unlisted one by its name)
    /// cannot change a finding: the package is not verified again, the
    /// file's last list is published again. A definition below a stray
    /// `package-index.json` at the top of a 20,000-file tree is such a
    /// file: its keystrokes cost no verification of the tree (issue 38
    /// item 3).
    fn touch(&mut self, uri: &Uri, reread: bool) {
        if let Some(root) = self.root_of(uri) {
            if !reread && self.unread_by(&root, uri) {
                self.unread_edits
                    .insert(uri.as_str().to_owned(), (root, uri.clone()));
                return;
            }
            if reread {
                self.reread.insert(root.clone());
            }
            self.dirty.insert(root);
        } else if self.lone_shown.contains(uri.as_str())
            || self.docs.get(uri).is_some_and(|d| lone_kind(d).is_some())
        {
            self.lone_dirty.insert(uri.as_str().to_owned(), uri.clone());
        }
    }

    /// Whether the last verification of the package at `root`, still
    /// current (no read of its disk pending), found the file of `uri`
    /// unlisted, so read nothing of it.
    fn unread_by(&self, root: &PathBuf, uri: &Uri) -> bool {
        if self.reread.contains(root) || self.dirty.contains(root) {
            return false;
        }
        let rel = self
            .docs
            .get(uri)
            .and_then(|d| analysis::package_path(root, d.path.as_ref()?));
        match (self.analyses.get(root), rel) {
            (Some(a), Some(rel)) => a.unread(&rel),
            _ => false,
        }
    }

    /// Publishes again the last list of an edited file its package's
    /// verification does not read, and keeps its new text in the
    /// package's last analysis (the index code action reads the files
    /// from there).
    fn republish_unread(&mut self, conn: &Connection, root: &PathBuf, uri: Uri) {
        let doc = self.docs.get(&uri);
        let rel = doc.and_then(|d| analysis::package_path(root, d.path.as_ref()?));
        if let (Some(a), Some(d), Some(rel)) = (self.analyses.get_mut(root), doc, rel) {
            a.files.insert(rel.clone(), std::sync::Arc::clone(&d.bytes));
            match &d.parsed {
                Some(p) => a.parsed.insert(rel, std::sync::Arc::clone(p)),
                None => a.parsed.remove(&rel),
            };
            self.index_updates.remove(root);
        }
        let last = self.shown.get(uri.as_str()).cloned().unwrap_or_default();
        self.publish(conn, uri, last);
    }

    /// Verifies every marked package and lone document and publishes
    /// their diagnostics.
    fn verify_dirty(&mut self, conn: &Connection) {
        let roots = std::mem::take(&mut self.dirty);
        for root in &roots {
            self.verify_package(conn, root.clone());
        }
        for (root, uri) in std::mem::take(&mut self.unread_edits).into_values() {
            // A package verified just now published the file's list.
            if !roots.contains(&root) {
                self.republish_unread(conn, &root, uri);
            }
        }
        for uri in std::mem::take(&mut self.lone_dirty).into_values() {
            self.check_lone(conn, uri);
        }
    }

    /// Checks an open Binding or Interface Definition in no package as
    /// `check` checks one document ([`crate::document::check_document`]:
    /// strict I-JSON, its published schema, FD631/FD632) and publishes the
    /// findings on it; a document that was published and is now closed, or
    /// is no longer such a definition, is cleared.
    fn check_lone(&mut self, conn: &Connection, uri: Uri) {
        let doc = self.docs.get(&uri).filter(|d| lone_kind(d).is_some());
        let mut diagnostics = Vec::new();
        if let Some(doc) = doc {
            let name = doc.path.as_ref().and_then(|p| p.file_name()).map_or_else(
                || "document.json".to_owned(),
                |n| n.to_string_lossy().into_owned(),
            );
            let bytes = std::sync::Arc::clone(&doc.bytes);
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                // The buffer's one parse, when it has one; else the check
                // reads the strict reader's refusal of its bytes.
                let checked = match &doc.parsed {
                    Some(p) => {
                        crate::document::check_parsed_document(&name, bytes.to_vec(), p, None)
                    }
                    None => crate::document::check_document(&name, bytes.to_vec(), None),
                }
                .ok()?;
                let a = analysis::Analysis::document(&name, bytes, checked.outcome);
                let mut found = analysis::diagnostics(&a, |rel| (rel == name).then(|| uri.clone()));
                Some(found.remove(&name).map(|(_, d)| d).unwrap_or_default())
            }));
            match run {
                Ok(Some(found)) => diagnostics = found,
                _ => {
                    log(conn, "form-package: checking a lone document failed inside the verifier (a bug): diagnostics not updated".to_owned());
                    return;
                }
            }
        }
        if diagnostics.is_empty() {
            self.lone_shown.remove(uri.as_str());
        } else {
            self.lone_shown.insert(uri.as_str().to_owned());
        }
        self.publish(conn, uri, diagnostics);
    }

    /// Records `diagnostics` as shown on `uri` (hover and code actions
    /// read every finding) and sends the editor the capped list
    /// ([`analysis::capped`]); an empty list clears the file.
    fn publish(&mut self, conn: &Connection, uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>) {
        if diagnostics.is_empty() {
            self.shown.remove(uri.as_str());
        } else {
            self.shown
                .insert(uri.as_str().to_owned(), diagnostics.clone());
        }
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics: analysis::capped(diagnostics),
            version: None,
        };
        let _ = conn.sender.send(Message::Notification(Notification::new(
            "textDocument/publishDiagnostics".into(),
            params,
        )));
    }

    /// Verifies the package at `root` from the buffers over the disk and
    /// publishes (see the module docs).
    fn verify_package(&mut self, conn: &Connection, root: PathBuf) {
        self.verifications += 1;
        // The open documents of this package (not of a package nested in it).
        let mut open: BTreeMap<String, Uri> = BTreeMap::new();
        let mut buffers: BTreeMap<String, analysis::Buffer> = BTreeMap::new();
        for d in self.docs.iter() {
            let Some(path) = &d.path else { continue };
            let Some(rel) = analysis::package_path(&root, path) else {
                continue;
            };
            if analysis::package_root(path, |p| self.docs.by_path(p).is_some()).as_ref()
                != Some(&root)
            {
                continue;
            }
            open.insert(rel.clone(), d.uri.clone());
            buffers.insert(
                rel,
                analysis::Buffer {
                    bytes: std::sync::Arc::clone(&d.bytes),
                    parsed: d.parsed.clone(),
                },
            );
        }
        if self.reread.remove(&root) || !self.disk.contains_key(&root) {
            self.disk
                .insert(root.clone(), analysis::DiskSnapshot::read(&root));
        }
        let disk = self.disk.get(&root);
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let empty = analysis::DiskSnapshot::default();
            let a = analysis::analyze(&root, disk.unwrap_or(&empty), &buffers);
            let found = analysis::diagnostics(&a, |rel| {
                open.get(rel)
                    .cloned()
                    .or_else(|| documents::file_uri(&root.join(rel)))
            });
            (a, found)
        }));
        let mut found = match run {
            Ok((a, found)) => {
                self.index_updates.remove(&root);
                self.analyses.insert(root.clone(), a);
                found
            }
            Err(_) => {
                log(
                    conn,
                    format!(
                        "form-package: verifying {} failed inside the verifier (a bug): diagnostics not updated",
                        root.display()
                    ),
                );
                return;
            }
        };
        // Open files without findings, and files whose findings went away,
        // get an empty list.
        let before = self.published.remove(&root).unwrap_or_default();
        for (rel, uri) in open.iter().chain(before.iter()) {
            found
                .entry(rel.clone())
                .or_insert_with(|| (uri.clone(), Vec::new()));
        }
        let mut now = BTreeMap::new();
        for (rel, (uri, diagnostics)) in found {
            // An open file gets its list after every verification (a
            // client waits for it); a file that is not open only when its
            // list changed: its last one stands in the editor until then
            // (a package of 20,000 unlisted files is not 20,000
            // notifications per keystroke).
            let unchanged = self
                .shown
                .get(uri.as_str())
                .map_or(diagnostics.is_empty(), |last| *last == diagnostics);
            if !open.contains_key(&rel) && unchanged {
                if !diagnostics.is_empty() {
                    now.insert(rel, uri);
                }
                continue;
            }
            if !diagnostics.is_empty() {
                now.insert(rel, uri.clone());
            }
            self.publish(conn, uri, diagnostics);
        }
        if open.is_empty() {
            // No file of the package is open: nothing to keep its disk for.
            self.disk.remove(&root);
        }
        self.published.insert(root, now);
    }
}

/// Whether an open document is a Binding or Interface Definition (by its
/// text, or while it is half-typed by its last strict text), which the
/// server checks on its own when it is in no package.
fn lone_kind(d: &documents::Document) -> Option<crate::doc_kind::DocKind> {
    use crate::doc_kind::DocKind;
    crate::doc_kind::classify(d.last_good.as_ref()?.value())
        .filter(|k| matches!(k, DocKind::BindingDefinition | DocKind::InterfaceDefinition))
}

/// Sends `message` to the client's log as an error.
fn log(conn: &Connection, message: String) {
    let params = LogMessageParams {
        typ: MessageType::ERROR,
        message,
    };
    let _ = conn.sender.send(Message::Notification(Notification::new(
        "window/logMessage".into(),
        params,
    )));
}

/// A success response.
fn ok(id: RequestId, result: impl serde::Serialize) -> Response {
    Response {
        id,
        response_result: Ok(serde_json::to_value(result).unwrap_or(serde_json::Value::Null)),
    }
}

/// An error response.
fn err(id: RequestId, code: ErrorCode, message: &str) -> Response {
    Response::new_err(id, code as i32, message.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Issue 38 item 3: an edit of a file its package's verification does
    /// not read (unlisted: FD018) verifies nothing and publishes the
    /// file's last list again; near misses: an edit of a listed file, and
    /// the save of the unlisted one, verify the package.
    #[test]
    fn an_edit_of_an_unlisted_file_verifies_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/packages/v1alpha1/example-store-1.0.0-f486d5e31632");
        for rel in [
            "package-index.json",
            "definition.json",
            "fixtures/desired.json",
        ] {
            let to = dir.path().join(rel);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(fixture.join(rel), to).unwrap();
        }
        std::fs::write(dir.path().join("notes.json"), "{}").unwrap();
        let (conn, client) = Connection::memory();
        let mut server = Server {
            state: State::Running,
            ..Server::default()
        };
        let uri = |rel: &str| documents::file_uri(&dir.path().join(rel)).unwrap();
        let send = |server: &mut Server, method: &str, params: serde_json::Value| {
            server.notification(Notification::new(method.to_owned(), params));
            server.verify_dirty(&conn);
        };
        let published = |rel: &str| -> Vec<String> {
            let mut last = None;
            while let Ok(Message::Notification(n)) = client.receiver.try_recv() {
                if n.params["uri"] == uri(rel).as_str() {
                    last = Some(n.params["diagnostics"].clone());
                }
            }
            let list = last.expect("a publication");
            let codes = list.as_array().unwrap().iter();
            codes
                .map(|d| d["code"].as_str().unwrap_or_default().to_owned())
                .collect()
        };
        for (rel, text) in [("notes.json", "{}"), ("definition.json", "")] {
            let text = if text.is_empty() {
                std::fs::read_to_string(dir.path().join(rel)).unwrap()
            } else {
                text.to_owned()
            };
            let doc =
                json!({"uri": uri(rel).as_str(), "languageId": "json", "version": 1, "text": text});
            send(
                &mut server,
                "textDocument/didOpen",
                json!({ "textDocument": doc }),
            );
        }
        assert_eq!(published("notes.json"), ["FD018"]);
        let before = server.verifications;
        let change = |rel: &str, text: &str| json!({"textDocument": {"uri": uri(rel).as_str(), "version": 2}, "contentChanges": [{"text": text}]});
        send(
            &mut server,
            "textDocument/didChange",
            change("notes.json", "{\"a\": "),
        );
        assert_eq!(server.verifications, before, "nothing verified");
        assert_eq!(published("notes.json"), ["FD018"], "the list again");
        let root = dir.path().to_path_buf();
        assert_eq!(&server.analyses[&root].files["notes.json"][..], b"{\"a\": ");
        // Near misses: an edit of the listed definition, the save.
        send(
            &mut server,
            "textDocument/didChange",
            change("definition.json", "{"),
        );
        assert_eq!(server.verifications, before + 1);
        let saved = json!({"textDocument": {"uri": uri("notes.json").as_str()}});
        send(&mut server, "textDocument/didSave", saved);
        assert_eq!(server.verifications, before + 2);
    }
}

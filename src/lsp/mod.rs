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
//!   is cleared. A half-typed buffer gets the strict reader's finding
//!   (`FD001`/`FD002`…) at the place it stops. Changes that arrive
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
//!   open file left drops its snapshot.
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
pub mod navigate;
pub mod surrogates;
pub mod transport;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, Write};
use std::path::PathBuf;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOptions, CodeActionOrCommand, CodeActionParams,
    CodeActionProviderCapability, CompletionOptions, CompletionParams, CompletionResponse,
    DidChangeTextDocumentParams, DidChangeWatchedFilesParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DidSaveTextDocumentParams, GotoDefinitionParams,
    GotoDefinitionResponse, Hover, HoverContents, HoverParams, HoverProviderCapability,
    InitializeResult, Location, LogMessageParams, MarkupContent, MarkupKind, MessageType, OneOf,
    PositionEncodingKind, PublishDiagnosticsParams, Range, ServerCapabilities, ServerInfo,
    TextDocumentPositionParams, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextDocumentSyncOptions, TextDocumentSyncSaveOptions, TextEdit, Uri, WorkspaceEdit,
};

use crate::codes::Code;
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
}

impl Server {
    /// The message loop; see [`serve`] for the result.
    fn run(&mut self, conn: &Connection) -> bool {
        loop {
            let msg = if self.dirty.is_empty() && self.lone_dirty.is_empty() {
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
                ok(id, initialize_result())
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
    fn touch(&mut self, uri: &Uri, reread: bool) {
        if let Some(root) = self.root_of(uri) {
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

    /// Verifies every marked package and lone document and publishes
    /// their diagnostics.
    fn verify_dirty(&mut self, conn: &Connection) {
        for root in std::mem::take(&mut self.dirty) {
            self.verify_package(conn, root);
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
            let bytes = doc.bytes();
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let checked = crate::document::check_document(&name, bytes.clone(), None).ok()?;
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
        // The open documents of this package (not of a package nested in it).
        let mut open: BTreeMap<String, Uri> = BTreeMap::new();
        let mut buffers: BTreeMap<String, Vec<u8>> = BTreeMap::new();
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
            buffers.insert(rel, d.bytes());
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

    /// Code actions for the range asked (see [`actions`]): "close this
    /// object" for each FD213 finding published on the document whose
    /// range meets it, and "update package-index.json" anywhere in a file
    /// of a package whose index `index` would change. Both are quick fixes
    /// (kind `quickfix`); nothing when `context.only` excludes that kind, or
    /// for a document that is not open.
    fn code_actions(&mut self, p: &CodeActionParams) -> Vec<CodeActionOrCommand> {
        let mut out = Vec::new();
        let wanted = p.context.only.as_ref().is_none_or(|only| {
            only.iter()
                .any(|k| k.as_str().is_empty() || *k == CodeActionKind::QUICKFIX)
        });
        let uri = &p.text_document.uri;
        let Some(doc) = self.docs.get(uri) else {
            return out;
        };
        if !wanted {
            return out;
        }
        let text = doc.text.as_bytes();
        for d in self.shown.get(uri.as_str()).into_iter().flatten() {
            let fd213 = matches!(&d.code, Some(lsp_types::NumberOrString::String(c)) if c == Code::OpenObjectSchema.info().id);
            let meets = d.range.start <= p.range.end && p.range.start <= d.range.end;
            let pointer = d
                .data
                .as_ref()
                .and_then(|v| v.get("pointer"))
                .and_then(serde_json::Value::as_str)
                .and_then(crate::json::pointer::JsonPointer::parse);
            let (true, true, Some(pointer)) = (fd213, meets, pointer) else {
                continue;
            };
            let Some((span, new_text)) = actions::close_object(text, &pointer) else {
                continue;
            };
            let range = Range::new(
                analysis::lsp_position(text, span.start),
                analysis::lsp_position(text, span.end),
            );
            let edit = WorkspaceEdit {
                changes: Some([(uri.clone(), vec![TextEdit::new(range, new_text)])].into()),
                ..Default::default()
            };
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: "Close this object: \"additionalProperties\": false".to_owned(),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![d.clone()]),
                edit: Some(edit),
                is_preferred: Some(true),
                ..Default::default()
            }));
        }
        if let Some(action) = self.index_action(uri) {
            out.push(CodeActionOrCommand::CodeAction(action));
        }
        out
    }

    /// "Update package-index.json" for the package of `uri`: one edit that
    /// replaces the whole index (its buffer, or its file on disk) by what
    /// `index` would write ([`actions::updated_index`]).
    fn index_action(&mut self, uri: &Uri) -> Option<CodeAction> {
        let root = self.root_of(uri)?;
        let a = self.analyses.get(&root)?;
        let new = self
            .index_updates
            .entry(root.clone())
            .or_insert_with(|| actions::updated_index(a))
            .clone()?;
        let old = a.files.get(crate::fsread::INDEX_NAME)?;
        let new_text = String::from_utf8(new).ok()?;
        let path = root.join(crate::fsread::INDEX_NAME);
        let index_uri = match self.docs.by_path(&path) {
            Some(d) => d.uri.clone(),
            None => documents::file_uri(&path)?,
        };
        let range = Range::new(
            lsp_types::Position::new(0, 0),
            analysis::lsp_position(old, old.len()),
        );
        Some(CodeAction {
            title: "Update package-index.json (sizes, digests, schemaDigest)".to_owned(),
            kind: Some(CodeActionKind::QUICKFIX),
            edit: Some(WorkspaceEdit {
                changes: Some([(index_uri, vec![TextEdit::new(range, new_text)])].into()),
                ..Default::default()
            }),
            ..Default::default()
        })
    }

    /// Completion ([`completion::complete`]) in a package's definition or
    /// index, a fixture the definition lists (by its stage's schema), or a
    /// Binding or Interface Definition in no package: from the buffer, its
    /// last strict text and the package's files as the last analysis read
    /// them (disk and open buffers) plus any file opened since. `None` for
    /// any other document (a file the definition does not list, a file in
    /// no package), a position outside the document, or nothing to offer.
    fn completion(&self, at: &TextDocumentPositionParams) -> Option<CompletionResponse> {
        let uri = &at.text_document.uri;
        let doc = self.docs.get(uri)?;
        let offset = analysis::byte_offset(&doc.text, at.position)?;
        let mut files: Vec<String> = Vec::new();
        let mut definition_value: Option<serde_json::Value> = None;
        let kind = match self.root_of(uri) {
            Some(root) => {
                let rel = analysis::package_path(&root, doc.path.as_ref()?)?;
                let last = self.analyses.get(&root);
                let index_text = match self.docs.by_path(&root.join(crate::fsread::INDEX_NAME)) {
                    Some(d) => Some(d.text.as_bytes()),
                    None => last
                        .and_then(|a| a.files.get(crate::fsread::INDEX_NAME))
                        .map(Vec::as_slice),
                };
                let index: Option<serde_json::Value> =
                    index_text.and_then(|t| crate::json::strict::parse(t).ok().map(|p| p.value));
                let field = |k: &str| {
                    index
                        .as_ref()
                        .and_then(|i| i.get(k))
                        .and_then(serde_json::Value::as_str)
                };
                let definition = field("definitionPath").unwrap_or("definition.json");
                files.extend(last.into_iter().flat_map(|a| a.files.keys().cloned()));
                for d in self.docs.iter() {
                    let open = d
                        .path
                        .as_ref()
                        .and_then(|p| analysis::package_path(&root, p));
                    if let Some(open) = open.filter(|o| !files.contains(o)) {
                        files.push(open);
                    }
                }
                files.sort();
                if rel == crate::fsread::INDEX_NAME {
                    completion::DocumentKind::Index
                } else if rel == definition {
                    // A fixture path never names the definition itself.
                    files.retain(|f| f != definition);
                    let family = field("apiVersion")
                        .and_then(crate::profile::IndexProfile::from_api_version)
                        .map_or(crate::profile::Family::CurrentNeutral, |p| p.family());
                    completion::DocumentKind::Definition(family)
                } else {
                    // A fixture: the definition as it stands (its buffer,
                    // or its last strict text, or as last verified).
                    let def_doc = self.docs.by_path(&root.join(definition));
                    let parse = |t: &[u8]| crate::json::strict::parse(t).ok().map(|p| p.value);
                    definition_value = def_doc
                        .and_then(|d| {
                            parse(d.text.as_bytes()).or_else(|| {
                                d.last_good.as_deref().and_then(|t| parse(t.as_bytes()))
                            })
                        })
                        .or_else(|| last?.files.get(definition).and_then(|b| parse(b)));
                    completion::DocumentKind::Fixture
                }
            }
            None => {
                lone_kind(doc)?;
                completion::DocumentKind::Contract
            }
        };
        let stage_schema = match kind {
            completion::DocumentKind::Fixture => {
                let rel = analysis::package_path(&self.root_of(uri)?, doc.path.as_ref()?)?;
                Some(completion::fixture_stage(definition_value.as_ref()?, &rel)?)
            }
            _ => None,
        };
        let input = completion::Input {
            text: &doc.text,
            offset,
            kind,
            last_good: doc.last_good.as_deref(),
            files: &files,
            stage_schema,
        };
        completion::complete(&input).map(CompletionResponse::List)
    }

    /// Go to definition: a local `$ref` to its target schema in the same
    /// document, a package path to that file of the package (open or on
    /// disk). `None` for anything else, a position outside the document or
    /// a buffer that is not strict I-JSON.
    fn definition(&mut self, at: &TextDocumentPositionParams) -> Option<GotoDefinitionResponse> {
        let doc = self.docs.get(&at.text_document.uri)?;
        let offset = analysis::byte_offset(&doc.text, at.position)?;
        let (good, good_offset, shift) = doc.good_view(offset)?;
        let location = match navigate::target_at(good.as_bytes(), good_offset)? {
            navigate::Target::Schema { span, .. } => {
                let text = doc.text.as_bytes();
                let range = Range::new(
                    analysis::lsp_position(text, shift.to_new(span.start)),
                    analysis::lsp_position(text, shift.to_new(span.end)),
                );
                Location::new(doc.uri.clone(), range)
            }
            navigate::Target::File(rel) => {
                let path = self.root_of(&at.text_document.uri)?.join(rel);
                let uri = match self.docs.by_path(&path) {
                    Some(open) => open.uri.clone(),
                    None => std::fs::symlink_metadata(&path)
                        .is_ok_and(|m| m.file_type().is_file())
                        .then(|| documents::file_uri(&path))
                        .flatten()?,
                };
                Location::new(uri, Range::default())
            }
        };
        Some(GotoDefinitionResponse::Scalar(location))
    }

    /// Hover: the `explain` text of the code under the cursor (`FD213`), or
    /// of the codes of the published diagnostics whose range holds it.
    /// `None` for a document that is not open or a position outside it.
    fn hover(&self, p: &HoverParams) -> Option<Hover> {
        let at = &p.text_document_position_params;
        let doc = self.docs.get(&at.text_document.uri)?;
        let offset = analysis::byte_offset(&doc.text, at.position)?;
        let text = doc.text.as_bytes();
        let word = |b: &u8| b.is_ascii_alphanumeric();
        let start = text
            .get(..offset)?
            .iter()
            .rposition(|b| !word(b))
            .map_or(0, |i| i + 1);
        let end = offset
            + text
                .get(offset..)?
                .iter()
                .position(|b| !word(b))
                .unwrap_or(text.len() - offset);
        let token = doc.text.get(start..end).unwrap_or_default();
        let is_code = token.len() == 5
            && token.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("FD"))
            && token.bytes().skip(2).all(|b| b.is_ascii_digit());
        if let Some(code) = is_code.then(|| token.parse::<Code>().ok()).flatten() {
            let range = Range::new(
                analysis::lsp_position(text, start),
                analysis::lsp_position(text, end),
            );
            return Some(hover_text(&[code], Some(range)));
        }
        if let Some(navigate::Target::Schema {
            pointer,
            text: schema,
            ..
        }) = doc
            .good_view(offset)
            .and_then(|(good, at, _)| navigate::target_at(good.as_bytes(), at))
        {
            return Some(Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind: MarkupKind::PlainText,
                    value: format!("{pointer}\n{}", clip(&schema)),
                }),
                range: None,
            });
        }
        let good = doc.good_view(offset);
        if let Some((relation, _)) = good
            .as_ref()
            .and_then(|(good, at, _)| navigate::relation_at(good.as_bytes(), *at))
        {
            // The findings published there are explained after it.
            let explained = self
                .codes_at(at)
                .iter()
                .map(|c| crate::explain::explain_for_authors(*c))
                .collect::<Vec<_>>();
            let value = std::iter::once(relation_text(&relation))
                .chain(explained)
                .collect::<Vec<_>>();
            return Some(plain(value.join("\n")));
        }
        if let Some(value) = self.schema_digest_hover(doc, offset) {
            let codes = self.codes_at(at);
            let explained: Vec<String> = codes
                .iter()
                .map(|c| crate::explain::explain_for_authors(*c))
                .collect();
            let value = std::iter::once(value).chain(explained).collect::<Vec<_>>();
            return Some(plain(value.join("\n")));
        }
        let codes = self.codes_at(at);
        (!codes.is_empty()).then(|| hover_text(&codes, None))
    }

    /// The codes of the published diagnostics whose range holds the
    /// position, each once, in their order.
    fn codes_at(&self, at: &TextDocumentPositionParams) -> Vec<Code> {
        let mut codes: Vec<Code> = Vec::new();
        let list = self.shown.get(at.text_document.uri.as_str());
        for d in list.into_iter().flatten() {
            let inside = d.range.start <= at.position && at.position <= d.range.end;
            let code = match &d.code {
                Some(lsp_types::NumberOrString::String(s)) => s.parse::<Code>().ok(),
                _ => None,
            };
            if let (true, Some(c)) = (inside, code) {
                if !codes.contains(&c) {
                    codes.push(c);
                }
            }
        }
        codes
    }

    /// On `/formRef/schemaDigest` of a package's index: whether it matches
    /// the SHA-256 of the RFC 8785 form of the definition as it stands in
    /// the editor (its buffer, else its file), as `verify` compares them
    /// (FD123); `None` elsewhere.
    fn schema_digest_hover(&self, doc: &documents::Document, offset: usize) -> Option<String> {
        let path = doc.path.as_ref()?;
        if path.file_name()? != crate::fsread::INDEX_NAME {
            return None;
        }
        let (good, at, _) = doc.good_view(offset)?;
        let listed = navigate::schema_digest_at(good.as_bytes(), at)?;
        let root = path.parent()?;
        let index: serde_json::Value = crate::json::strict::parse(good.as_bytes()).ok()?.value;
        let def_path = index
            .get("definitionPath")
            .and_then(serde_json::Value::as_str)
            .unwrap_or("definition.json");
        let shown_path = crate::render::escape::text(def_path);
        let bytes = match self.docs.by_path(&root.join(def_path)) {
            Some(d) => d.bytes(),
            None => self
                .analyses
                .get(root)
                .and_then(|a| a.files.get(def_path).cloned())?,
        };
        let digest = crate::json::strict::parse(&bytes)
            .ok()
            .and_then(|p| crate::canonical::canonicalize(&p.value).ok())
            .map(|c| crate::canonical::sha256_digest(&c));
        let listed_text = listed.as_deref().map_or_else(
            || "not a string".to_owned(),
            |l| crate::render::escape::text(l).into_owned(),
        );
        Some(match digest {
            None => format!(
                "schemaDigest {listed_text}: {shown_path} as it stands in the editor is not strict I-JSON, so it has no digest to compare"
            ),
            Some(d) if listed.as_deref() == Some(d.as_str()) => format!(
                "schemaDigest matches {shown_path} as it stands in the editor ({d}, the SHA-256 of its RFC 8785 form)"
            ),
            Some(d) => format!(
                "schemaDigest does not match {shown_path} as it stands in the editor:\n  index:      {listed_text}\n  definition: {d} (SHA-256 of its RFC 8785 form)\nthe code action \"Update package-index.json\" writes the definition's"
            ),
        })
    }
}

/// Whether an open document is a Binding or Interface Definition (by its
/// text, or while it is half-typed by its last strict text), which the
/// server checks on its own when it is in no package.
fn lone_kind(d: &documents::Document) -> Option<crate::doc_kind::DocKind> {
    use crate::doc_kind::DocKind;
    let text = d.last_good.as_deref()?;
    let value = crate::json::strict::parse(text.as_bytes()).ok()?.value;
    crate::doc_kind::classify(&value)
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

/// A plain-text hover.
fn plain(value: String) -> Hover {
    Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::PlainText,
            value,
        }),
        range: None,
    }
}

/// What a hover on a relation says: its pointer, target, binding, whether
/// it is required and its target contract, as `form-package relations`
/// lists them ([`crate::render::relations::contract_text`]); text from the
/// package escaped.
fn relation_text(r: &crate::relations::Relation) -> String {
    let esc = |s: &str| crate::render::escape::text(s).into_owned();
    let binding = if r.binding.is_empty() {
        "-".to_owned()
    } else {
        esc(&r.binding)
    };
    format!(
        "relation {} (decision 0015)\ntarget: {}/{}\nbinding: {binding}\nrequired: {}\ntarget contract: {}",
        esc(&r.pointer),
        esc(&r.target_api_version),
        esc(&r.target_kind),
        if r.required { "yes" } else { "no" },
        esc(&crate::render::relations::contract_text(r)),
    )
}

/// At most [`HOVER_CHARS`] characters of `text`, then how many were left out.
fn clip(text: &str) -> String {
    let total = text.chars().count();
    if total <= HOVER_CHARS {
        return text.to_owned();
    }
    let head: String = text.chars().take(HOVER_CHARS).collect();
    format!("{head}\n… ({} more characters)", total - HOVER_CHARS)
}

/// The most characters of a schema a hover shows.
const HOVER_CHARS: usize = 8000;

/// A hover showing the `explain` text of `codes`, one after the other.
fn hover_text(codes: &[Code], range: Option<Range>) -> Hover {
    let value = codes
        .iter()
        .map(|c| crate::explain::explain_for_authors(*c))
        .collect::<Vec<_>>()
        .join("\n");
    Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::PlainText,
            value,
        }),
        range,
    }
}

/// The `initialize` result: what this server offers.
fn initialize_result() -> InitializeResult {
    InitializeResult {
        capabilities: ServerCapabilities {
            position_encoding: Some(PositionEncodingKind::UTF16),
            text_document_sync: Some(TextDocumentSyncCapability::Options(
                TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::FULL),
                    save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                    ..Default::default()
                },
            )),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            definition_provider: Some(OneOf::Left(true)),
            completion_provider: Some(CompletionOptions {
                trigger_characters: Some(vec!["\"".to_owned()]),
                ..Default::default()
            }),
            code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
                ..Default::default()
            })),
            ..Default::default()
        },
        server_info: Some(ServerInfo {
            name: "form-package".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        }),
    }
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

//! `textDocument/codeAction`: the quick fixes ([`crate::lsp::actions`]).

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, Range, TextEdit, Uri,
    WorkspaceEdit,
};

use crate::codes::Code;
use crate::lsp::{actions, analysis, documents, Server};

impl Server {
    /// Code actions for the range asked (see [`actions`]): "close this
    /// object" for each FD213 finding published on the document whose
    /// range meets it, and "update package-index.json" anywhere in a file
    /// of a package whose index `index` would change. Both are quick fixes
    /// (kind `quickfix`); nothing when `context.only` excludes that kind, or
    /// for a document that is not open.
    pub(crate) fn code_actions(&mut self, p: &CodeActionParams) -> Vec<CodeActionOrCommand> {
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
            // The document's own parse: a buffer that is not strict
            // I-JSON gets no edit.
            let Some(parsed) = &doc.parsed else {
                continue;
            };
            let Some((span, new_text)) = actions::close_object(&parsed.parsed, text, &pointer)
            else {
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
    pub(crate) fn index_action(&mut self, uri: &Uri) -> Option<CodeAction> {
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
}

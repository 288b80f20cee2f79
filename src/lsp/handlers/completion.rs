//! `textDocument/completion` ([`crate::lsp::completion`]).

use lsp_types::{CompletionResponse, TextDocumentPositionParams};

use std::borrow::Cow;

use crate::lsp::{analysis, completion, documents, lone_kind, Server};

impl Server {
    /// Completion ([`completion::complete`]) in a package's definition or
    /// index, a fixture the definition lists (by its stage's schema), or a
    /// Binding or Interface Definition in no package: from the buffer, its
    /// last strict text and the package's files as the last analysis read
    /// them (disk and open buffers) plus any file opened since. `None` for
    /// any other document (a file the definition does not list, a file in
    /// no package), a position outside the document, or nothing to offer.
    pub(crate) fn completion(&self, at: &TextDocumentPositionParams) -> Option<CompletionResponse> {
        let uri = &at.text_document.uri;
        let doc = self.docs.get(uri)?;
        let offset = analysis::byte_offset(&doc.text, at.position)?;
        let mut files: Vec<String> = Vec::new();
        let mut definition_value: Option<Cow<'_, serde_json::Value>> = None;
        let parse = |t: &[u8]| {
            crate::json::strict::parse(t)
                .ok()
                .map(|p| Cow::Owned(p.value))
        };
        let kind = match self.root_of(uri) {
            Some(root) => {
                let rel = analysis::package_path(&root, doc.path.as_ref()?)?;
                let last = self.analyses.get(&root);
                // The index as it stands: its buffer's parse, else its
                // file as last verified (parsed here).
                let index = match self.docs.by_path(&root.join(crate::fsread::INDEX_NAME)) {
                    Some(d) => d.parsed.as_ref().map(|p| Cow::Borrowed(&p.parsed.value)),
                    None => last
                        .and_then(|a| a.files.get(crate::fsread::INDEX_NAME))
                        .and_then(|b| parse(b)),
                };
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
                    definition_value = def_doc
                        .and_then(|d| d.last_good.as_ref())
                        .map(|g| Cow::Borrowed(g.value()))
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
            good: doc.last_good.as_ref().map(documents::Good::value),
            files: &files,
            stage_schema,
        };
        completion::complete(&input).map(CompletionResponse::List)
    }
}

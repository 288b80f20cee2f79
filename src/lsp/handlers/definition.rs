//! `textDocument/definition`: a local `$ref` to its schema, a package path to its file
//! ([`crate::lsp::navigate`]).

use lsp_types::{GotoDefinitionResponse, Location, Range, TextDocumentPositionParams};

use crate::lsp::{analysis, documents, navigate, Server};

impl Server {
    /// Go to definition: a local `$ref` to its target schema in the same
    /// document, a package path to that file of the package (open or on
    /// disk). `None` for anything else, a position outside the document or
    /// a buffer that is not strict I-JSON.
    pub(crate) fn definition(
        &mut self,
        at: &TextDocumentPositionParams,
    ) -> Option<GotoDefinitionResponse> {
        let doc = self.docs.get(&at.text_document.uri)?;
        let offset = analysis::byte_offset(&doc.text, at.position)?;
        let (good, good_offset, shift) = doc.good_view(offset)?;
        let location = match navigate::target_at(good.parsed(), good.text.as_bytes(), good_offset)?
        {
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
}

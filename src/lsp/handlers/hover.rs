//! `textDocument/hover`: a code's `explain` text, a `$ref`'s target, a relation, whether
//! `schemaDigest` matches.

use lsp_types::{
    Hover, HoverContents, HoverParams, MarkupContent, MarkupKind, Range, TextDocumentPositionParams,
};

use crate::codes::Code;
use crate::lsp::{analysis, documents, navigate, Server};

impl Server {
    /// Hover: the `explain` text of the code under the cursor (`FD213`), or
    /// of the codes of the published diagnostics whose range holds it.
    /// `None` for a document that is not open or a position outside it.
    pub(crate) fn hover(&self, p: &HoverParams) -> Option<Hover> {
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
            .and_then(|(good, at, _)| navigate::target_at(good.parsed(), good.text.as_bytes(), at))
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
            .and_then(|(good, at, _)| navigate::relation_at(good.parsed(), *at))
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
    pub(crate) fn codes_at(&self, at: &TextDocumentPositionParams) -> Vec<Code> {
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
    pub(crate) fn schema_digest_hover(
        &self,
        doc: &documents::Document,
        offset: usize,
    ) -> Option<String> {
        let path = doc.path.as_ref()?;
        if path.file_name()? != crate::fsread::INDEX_NAME {
            return None;
        }
        let (good, at, _) = doc.good_view(offset)?;
        let listed = navigate::schema_digest_at(good.parsed(), at)?;
        let root = path.parent()?;
        let def_path = good
            .value()
            .get("definitionPath")
            .and_then(serde_json::Value::as_str)
            .unwrap_or("definition.json");
        let shown_path = crate::render::escape::text(def_path);
        // The definition's value: its buffer's parse, else its file as
        // last verified (parsed here).
        let from_disk;
        let value = match self.docs.by_path(&root.join(def_path)) {
            Some(d) => d.parsed.as_ref().map(|p| &p.parsed.value),
            None => {
                let bytes = self.analyses.get(root)?.files.get(def_path)?;
                from_disk = crate::json::strict::parse(bytes).ok().map(|p| p.value);
                from_disk.as_ref()
            }
        };
        let digest = value
            .and_then(|v| crate::canonical::canonicalize(v).ok())
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

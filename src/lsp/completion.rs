//! Completion inside a package's documents (issue 24 item 5): where the
//! cursor is in a possibly half-typed JSON text ([`cursor`], a tolerant
//! scan), and what may go there — the members the published schema admits
//! ([`crate::schemas::place`]), the Draft 2020-12 keywords this profile
//! admits inside an inline schema ([`crate::keywords::ADMITTED`]), the
//! `immutableFields` pointers that exist ([`immutable_pointers`]) and the
//! package's files where a package path goes.
//!
//! Nothing here verifies anything: the items come from the buffer, the
//! last text of it that was strict I-JSON and the last analysis.
//!
//! The scan is our own (a note, as the guide asks of hand-rolled code):
//! serde_json and the strict reader stop at a half-typed text's first error
//! and give no cursor role, and an error-recovering JSON parser would still
//! need this walk from tokens to the pointer and role at a position. The
//! strict reader is its oracle in the tests: at every member name and string
//! of a real corpus definition the scan gives the pointer the strict parse
//! gives (`the_scan_agrees_with_the_strict_parser_on_a_real_definition`).

use std::ops::Range;

use serde_json::Value;

/// Whether the cursor is where a member name goes or inside a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A member name of the object at [`Cursor::tokens`].
    Key,
    /// The value at [`Cursor::tokens`]: inside its string, or (no
    /// [`Cursor::token`]) where a value goes and none is typed yet.
    Value,
}

/// Where the cursor is, as far as a tolerant scan of the text up to it
/// (and of the rest of the object or array it is in) can tell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cursor {
    /// Key: the object's pointer tokens; Value: the value's own.
    pub tokens: Vec<String>,
    /// A member name or a string value.
    pub role: Role,
    /// The byte span of the token under the cursor (a string with its
    /// quotes, to its end when it is not closed; an unquoted word typed
    /// where a name goes), `None` between tokens.
    pub token: Option<Range<usize>>,
    /// Whether the token is a string whose closing quote is there.
    pub closed: bool,
    /// Whether a `:` follows the token (a name that already has a value).
    pub colon_follows: bool,
    /// The cursor's byte offset.
    pub offset: usize,
    /// Whether the value (Value) is an item of an array.
    pub in_array: bool,
    /// The other member names of the object (Key), or the other string
    /// items of the array (Value in an array), before and after the
    /// cursor, decoded.
    pub present: Vec<String>,
    /// The root object's members whose value is a string, decoded
    /// (`apiVersion` selects the schema).
    pub root_strings: Vec<(String, String)>,
}

/// One lexical token of a JSON text: its kind and byte span.
#[derive(Clone, Debug)]
struct Tok {
    kind: Kind,
    span: Range<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `{ } [ ] , :`.
    Punct(u8),
    /// A string (the span from its opening quote); whether it closed.
    Str(bool),
    /// A number, `true`, `false`, `null` or any other run of bytes.
    Word,
}

/// Whether `b` ends an unquoted word.
fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t' | b'\n' | b'\r' | b'{' | b'}' | b'[' | b']' | b',' | b':' | b'"'
    )
}

/// The tokens of `text`, in order, never failing: a string ends at its
/// closing quote or, unclosed, before the end of its line.
fn lex(text: &[u8]) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&b) = text.get(i) {
        let start = i;
        let kind = match b {
            b' ' | b'\t' | b'\n' | b'\r' => {
                i += 1;
                continue;
            }
            b'{' | b'}' | b'[' | b']' | b',' | b':' => {
                i += 1;
                Kind::Punct(b)
            }
            b'"' => {
                i += 1;
                let mut closed = false;
                while let Some(&c) = text.get(i) {
                    match c {
                        b'\\' => i += 2,
                        b'"' => {
                            i += 1;
                            closed = true;
                            break;
                        }
                        b'\n' | b'\r' => break,
                        _ => i += 1,
                    }
                }
                i = i.min(text.len());
                Kind::Str(closed)
            }
            _ => {
                while text.get(i).is_some_and(|&c| !is_delimiter(c)) {
                    i += 1;
                }
                Kind::Word
            }
        };
        out.push(Tok {
            kind,
            span: start..i,
        });
    }
    out
}

/// The decoded text of a string token (escapes resolved; an unclosed or
/// malformed one as well as it can).
fn decode(text: &str, span: &Range<usize>, closed: bool) -> String {
    let raw = text.get(span.clone()).unwrap_or_default();
    let whole = if closed {
        raw.to_owned()
    } else {
        format!("{}\"", raw.strip_suffix('\\').unwrap_or(raw))
    };
    serde_json::from_str::<String>(&whole)
        .unwrap_or_else(|_| raw.trim_start_matches('"').trim_end_matches('"').to_owned())
}

/// What the scan expects next in an object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    Key,
    Colon,
    Value,
    Comma,
}

/// One open object or array of the scan, with the names (object) or
/// string items (array) read in it so far and their spans.
#[derive(Clone, Debug)]
enum Frame {
    Object {
        key: Option<String>,
        want: Want,
        seen: Vec<(Range<usize>, String)>,
    },
    Array {
        index: usize,
        /// After `[` or `,`: an item goes here.
        want: bool,
        seen: Vec<(Range<usize>, String)>,
    },
}

impl Frame {
    /// The pointer token of the value being read in this frame.
    fn token(&self) -> Option<String> {
        match self {
            Frame::Object { key, .. } => key.clone(),
            Frame::Array { index, .. } => Some(index.to_string()),
        }
    }

    /// The names or string items read in this frame.
    fn seen(&self) -> &[(Range<usize>, String)] {
        match self {
            Frame::Object { seen, .. } | Frame::Array { seen, .. } => seen,
        }
    }
}

/// The most nested objects and arrays the scan follows (deeper text gets
/// no completion; the strict reader refuses it anyway).
const MAX_DEPTH: usize = 1024;

/// The cursor in the open `stack`, when byte `offset` lies in `tok` or, with
/// `tok` `None` (or the offset before it), in the gap after `prev_end`.
/// `Err(())` when the offset is there but nothing can be completed.
fn place(
    text: &str,
    stack: &[Frame],
    tok: Option<&Tok>,
    prev_end: usize,
    offset: usize,
) -> Option<Result<Cursor, ()>> {
    let bytes = text.as_bytes();
    let colon_after = |end: usize| {
        bytes
            .get(end..)
            .and_then(|rest| rest.iter().find(|b| !b.is_ascii_whitespace()))
            == Some(&b':')
    };
    let next_start = tok.map_or(bytes.len(), |t| t.span.start);
    let all: Vec<String> = stack.iter().filter_map(Frame::token).collect();
    let object: Vec<String> = stack
        .split_last()
        .map(|(_, parents)| parents.iter().filter_map(Frame::token).collect())
        .unwrap_or_default();
    let in_array = matches!(stack.last(), Some(Frame::Array { .. }));
    let cursor = |tokens, role, token: Option<Range<usize>>, closed| Cursor {
        colon_follows: token.as_ref().is_some_and(|t| colon_after(t.end)),
        in_array: in_array && role == Role::Value,
        offset,
        tokens,
        role,
        token,
        closed,
        present: Vec::new(),
        root_strings: Vec::new(),
    };
    if prev_end <= offset && offset <= next_start {
        // Between tokens: where a name goes, or a value (inserted quoted).
        return Some(match stack.last() {
            Some(Frame::Object {
                want: Want::Key, ..
            }) => Ok(cursor(object, Role::Key, None, false)),
            Some(Frame::Object {
                want: Want::Value, ..
            })
            | Some(Frame::Array { want: true, .. }) => Ok(cursor(all, Role::Value, None, false)),
            _ => Err(()),
        });
    }
    let tok = tok?;
    let r = &tok.span;
    match tok.kind {
        Kind::Str(closed)
            if r.start < offset && (offset < r.end || (!closed && offset == r.end)) =>
        {
            let c = match stack.last() {
                Some(Frame::Object {
                    want: Want::Value, ..
                }) => cursor(all, Role::Value, Some(r.clone()), closed),
                Some(Frame::Object { .. }) => cursor(object, Role::Key, Some(r.clone()), closed),
                Some(Frame::Array { .. }) => cursor(all, Role::Value, Some(r.clone()), closed),
                None => return Some(Err(())),
            };
            Some(Ok(c))
        }
        Kind::Word if r.start < offset && offset <= r.end => Some(match stack.last() {
            Some(Frame::Object {
                want: Want::Key, ..
            }) => Ok(cursor(object, Role::Key, Some(r.clone()), false)),
            _ => Err(()),
        }),
        _ if offset < r.end => Some(Err(())),
        _ => None,
    }
}

/// Where byte `offset` of `text` is: a member name position or a value
/// (inside a string, or after `:`, `[` or `,` where none is typed yet),
/// with the pointer of its object or value, found by a tolerant
/// scan that needs no valid JSON (unclosed braces, a trailing comma, a
/// name typed halfway, a missing comma are read as an author means them).
/// `None` for an offset that is not on a character boundary or past the
/// end, and where neither a name nor a value goes (inside a number, after
/// a value with no comma, deeper than `MAX_DEPTH`).
pub fn cursor(text: &str, offset: usize) -> Option<Cursor> {
    if offset > text.len() || !text.is_char_boundary(offset) {
        return None;
    }
    let toks = lex(text.as_bytes());
    let mut stack: Vec<Frame> = Vec::new();
    let mut root_strings: Vec<(String, String)> = Vec::new();
    // Once placed: the cursor and the depth of its frame; `open` while
    // that frame has not closed (its names are still being collected).
    let mut placed: Option<(Cursor, usize)> = None;
    let mut present: Option<Vec<(Range<usize>, String)>> = None;
    let mut prev_end = 0;
    for tok in &toks {
        if placed.is_none() {
            match place(text, &stack, Some(tok), prev_end, offset) {
                Some(Ok(c)) => placed = Some((c, stack.len())),
                Some(Err(())) => return None,
                None => {}
            }
        }
        prev_end = tok.span.end;
        let depth = stack.len();
        match tok.kind {
            Kind::Punct(b @ (b'{' | b'[')) => {
                match stack.last_mut() {
                    Some(Frame::Object { want, .. }) => *want = Want::Comma,
                    Some(Frame::Array { want, .. }) => *want = false,
                    None => {}
                }
                if stack.len() >= MAX_DEPTH {
                    return None;
                }
                stack.push(if b == b'{' {
                    Frame::Object {
                        key: None,
                        want: Want::Key,
                        seen: Vec::new(),
                    }
                } else {
                    Frame::Array {
                        index: 0,
                        want: true,
                        seen: Vec::new(),
                    }
                });
            }
            Kind::Punct(b'}' | b']') => {
                if let Some((_, d)) = &placed {
                    if *d == depth && present.is_none() {
                        present = stack.last().map(|f| f.seen().to_vec());
                    }
                }
                stack.pop();
            }
            Kind::Punct(b',') => match stack.last_mut() {
                Some(Frame::Object { want, key, .. }) => {
                    *want = Want::Key;
                    *key = None;
                }
                Some(Frame::Array { index, want, .. }) => {
                    *index += 1;
                    *want = true;
                }
                None => {}
            },
            Kind::Punct(b':') => {
                if let Some(Frame::Object { want, .. }) = stack.last_mut() {
                    *want = Want::Value;
                }
            }
            Kind::Punct(_) => {}
            Kind::Str(closed) => {
                let s = decode(text, &tok.span, closed);
                match stack.last_mut() {
                    Some(Frame::Object { key, want, seen }) if *want != Want::Value => {
                        // A name (after `{` or `,`, or with the comma missing).
                        seen.push((tok.span.clone(), s.clone()));
                        *key = Some(s);
                        *want = Want::Colon;
                    }
                    Some(Frame::Object { key, want, .. }) => {
                        if let (1, Some(k)) = (depth, key.as_ref()) {
                            root_strings.push((k.clone(), s));
                        }
                        *want = Want::Comma;
                    }
                    Some(Frame::Array { seen, want, .. }) => {
                        seen.push((tok.span.clone(), s));
                        *want = false;
                    }
                    None => {}
                }
            }
            Kind::Word => match stack.last_mut() {
                Some(Frame::Object { want, .. }) if *want == Want::Value => *want = Want::Comma,
                Some(Frame::Array { want, .. }) => *want = false,
                _ => {}
            },
        }
    }
    if placed.is_none() {
        match place(text, &stack, None, prev_end, offset) {
            Some(Ok(c)) => placed = Some((c, stack.len())),
            _ => return None,
        }
    }
    let (mut c, depth) = placed?;
    let seen = present.or_else(|| {
        depth
            .checked_sub(1)
            .and_then(|d| stack.get(d))
            .map(|f| f.seen().to_vec())
    });
    // The names of the cursor's object, or the strings of its array; the
    // token under the cursor is not one of them.
    if c.role == Role::Key || c.in_array {
        c.present = seen
            .unwrap_or_default()
            .into_iter()
            .filter(|(span, _)| Some(span) != c.token.as_ref())
            .map(|(_, s)| s)
            .collect();
    }
    c.root_strings = root_strings;
    Some(c)
}

/// The `immutableFields` pointers that exist in `desired`
/// ([`crate::constraints::declared_pointers`], at most [`MAX_POINTERS`]);
/// `true` in the second place when more were left out.
pub fn immutable_pointers(desired: &Value) -> (Vec<String>, bool) {
    crate::constraints::declared_pointers(desired)
}

/// The schema of the stage a fixture at package path `rel` is listed for
/// in `definition` (`verifier-rules.md` §3.7): `desiredSchema` for a
/// `desiredPath`, `observedSchema` for an `observedPath`, `outputSchema`
/// for an `outputPath`, and a negative fixture's `inputPath` by its
/// `stage`. `None` for a file the definition does not list.
pub fn fixture_stage<'a>(definition: &'a Value, rel: &str) -> Option<&'a Value> {
    let listed = |v: Option<&Value>| v.and_then(Value::as_str) == Some(rel);
    let list = |k: &str| {
        definition
            .get(k)
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default()
    };
    let stage = list("conformanceFixtures")
        .iter()
        .find_map(|f| {
            [
                ("desiredPath", "desiredSchema"),
                ("observedPath", "observedSchema"),
                ("outputPath", "outputSchema"),
            ]
            .into_iter()
            .find(|(path, _)| listed(f.get(*path)))
            .map(|(_, stage)| stage.to_owned())
        })
        .or_else(|| {
            list("negativeConformanceFixtures").iter().find_map(|f| {
                let stage = f.get("stage").and_then(Value::as_str)?;
                listed(f.get("inputPath")).then(|| format!("{stage}Schema"))
            })
        })?;
    definition.get(stage)
}

/// The most `immutableFields` pointers offered at once (the list says
/// when more exist: `isIncomplete`).
pub const MAX_POINTERS: usize = crate::constraints::MAX_POINTERS;

/// Which published schema a document follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocumentKind {
    /// The Form Definition of a package of this family (the index's
    /// `apiVersion` selects it, `current-profile.md` §2.2).
    Definition(crate::profile::Family),
    /// A package's `package-index.json`.
    Index,
    /// A Binding or Interface Definition (its `apiVersion` selects the
    /// schema, [`crate::profile::contract_profile`]).
    Contract,
    /// A fixture the definition lists: its stage's inline schema
    /// ([`Input::stage_schema`]) describes it.
    Fixture,
}

/// What a completion is computed from.
#[derive(Clone, Copy, Debug)]
pub struct Input<'a> {
    /// The document's text as it stands in the editor.
    pub text: &'a str,
    /// The cursor's byte offset in `text`.
    pub offset: usize,
    /// Which schema the document follows.
    pub kind: DocumentKind,
    /// The value of the last text of the document that was strict I-JSON
    /// (its current text when it is; its desired schema names the
    /// `immutableFields` pointers while the text is half-typed), from the
    /// document's one parse.
    pub good: Option<&'a Value>,
    /// The package's files (package paths: disk and open buffers, as the
    /// last analysis read them), offered where a package path goes.
    pub files: &'a [String],
    /// For a fixture: the definition's schema of its stage (desired,
    /// observed or output).
    pub stage_schema: Option<&'a Value>,
}

/// The published schema a document of `kind` follows, by the `apiVersion`
/// its text names (as `verify` and `check` select it); for a definition or
/// index whose `apiVersion` is missing or unknown, the schema of the
/// current profile (`v1alpha5`: definition v1 of the family, index
/// v1alpha5), so an author starting a document gets the current members.
fn schema_for(kind: DocumentKind, api_version: Option<&str>) -> Option<crate::schemas::SchemaRef> {
    use crate::profile::{contract_profile, definition_schema, IndexProfile, PROFILES};
    use crate::schemas::SchemaRef;
    Some(match kind {
        DocumentKind::Definition(family) => api_version
            .and_then(|v| definition_schema(v, family))
            .unwrap_or(SchemaRef::Definition(family.row().definition_schema)),
        DocumentKind::Index => api_version
            .and_then(IndexProfile::from_api_version)
            .or_else(|| PROFILES.last().map(|r| r.profile))?
            .index_schema(),
        DocumentKind::Contract => contract_profile(api_version?)?.schema,
        DocumentKind::Fixture => return None,
    })
}

/// One thing that may go at the cursor, before it is an LSP item.
struct Offer {
    /// The name, pointer, path or value (decoded).
    value: String,
    kind: lsp_types::CompletionItemKind,
    detail: String,
    documentation: Option<String>,
    /// Sorts before the others (a required member).
    first: bool,
}

/// The completion at `input`'s cursor: `None` where nothing is offered
/// (see [`cursor`]; a string value that is neither an `immutableFields`
/// item, a package path nor one of a closed set of strings; a member
/// position the schema says nothing of).
pub fn complete(input: &Input<'_>) -> Option<lsp_types::CompletionList> {
    let c = cursor(input.text, input.offset)?;
    let api = c
        .root_strings
        .iter()
        .find(|(k, _)| k == "apiVersion")
        .map(|(_, v)| v.as_str());
    if input.kind == DocumentKind::Fixture {
        // A fixture document: what its stage's schema declares there.
        let place = crate::schemas::place::inline_place(input.stage_schema?, &c.tokens)?;
        let offers = match c.role {
            Role::Key => member_offers(place.members, "the stage schema of the definition"),
            Role::Value => value_offers(place.values, "the stage schema of the definition"),
        };
        return list(input.text, &c, offers, false);
    }
    let schema = schema_for(input.kind, api)?;
    let mut incomplete = false;
    let offers: Vec<Offer> = match c.role {
        Role::Key => {
            let place = crate::schemas::place::place(schema, &c.tokens)?;
            match place.inline_schema {
                Some(n) => {
                    let inside = c.tokens.get(n..).unwrap_or_default();
                    if !crate::keywords::schema_at(inside) {
                        return None;
                    }
                    // This profile's keywords, then the exempt annotation
                    // keys (exempt from the definition's name scan, FD301).
                    let exempt =
                        crate::vocabulary::EXEMPT_KEYS.map(|name| crate::keywords::Admitted {
                            name,
                            rule: Some(crate::codes::Code::ForbiddenDefinitionField),
                        });
                    crate::keywords::ADMITTED
                        .into_iter()
                        .chain(exempt)
                        .map(keyword_offer)
                        .collect()
                }
                None => member_offers(place.members, schema_file(schema)),
            }
        }
        Role::Value => {
            let immutable = matches!(input.kind, DocumentKind::Definition(_))
                && c.in_array
                && c.tokens.len() == 2
                && c.tokens.first().map(String::as_str) == Some("immutableFields");
            if immutable {
                let (offers, more) = pointer_offers(input)?;
                incomplete = more;
                offers
            } else {
                let place = crate::schemas::place::place(schema, &c.tokens)?;
                if place.package_path {
                    input
                        .files
                        .iter()
                        .filter(|f| f.as_str() != crate::fsread::INDEX_NAME)
                        .map(|f| Offer {
                            value: f.clone(),
                            kind: lsp_types::CompletionItemKind::FILE,
                            detail: "a file of this package".to_owned(),
                            documentation: None,
                            first: f.starts_with("fixtures/"),
                        })
                        .collect()
                } else {
                    value_offers(place.values, schema_file(schema))
                }
            }
        }
    };
    list(input.text, &c, offers, incomplete)
}

/// The offers not already present, as a completion list (`None` when none
/// is left).
fn list(
    text: &str,
    c: &Cursor,
    offers: Vec<Offer>,
    incomplete: bool,
) -> Option<lsp_types::CompletionList> {
    let items: Vec<lsp_types::CompletionItem> = offers
        .into_iter()
        .filter(|o| !c.present.contains(&o.value))
        .enumerate()
        .map(|(i, o)| item(text, c, i, o))
        .collect();
    (!items.is_empty()).then_some(lsp_types::CompletionList {
        is_incomplete: incomplete,
        items,
    })
}

/// The members of a place as offers, `source` naming the schema.
fn member_offers(members: Vec<crate::schemas::place::Member>, source: &str) -> Vec<Offer> {
    members
        .into_iter()
        .map(|m| Offer {
            detail: format!(
                "{}, {} ({source})",
                m.shape,
                if m.required { "required" } else { "optional" },
            ),
            value: m.name,
            kind: lsp_types::CompletionItemKind::PROPERTY,
            documentation: m.description,
            first: m.required,
        })
        .collect()
}

/// The strings a place admits as offers, `source` naming the schema.
fn value_offers(values: Vec<String>, source: &str) -> Vec<Offer> {
    values
        .into_iter()
        .map(|v| Offer {
            value: v,
            kind: lsp_types::CompletionItemKind::ENUM_MEMBER,
            detail: format!("a value {source} admits here"),
            documentation: None,
            first: false,
        })
        .collect()
}

/// The file name of an embedded published schema (for an item's detail).
fn schema_file(schema: crate::schemas::SchemaRef) -> &'static str {
    let id = schema.id();
    crate::schemas::PUBLISHED
        .iter()
        .find(|p| p.id == id)
        .map_or("the published schema", |p| p.file)
}

/// A keyword of [`crate::keywords::ADMITTED`] (or an exempt key) as an offer: its value's
/// shape as FD222's help names it ([`crate::keywords::value_shape`]) and,
/// where a check of this profile governs it, that code's summary and help
/// (the text of its findings).
fn keyword_offer(k: crate::keywords::Admitted) -> Offer {
    let detail = match crate::keywords::value_shape(k.name) {
        Some(shape) => format!("Draft 2020-12 keyword: {shape}"),
        None if k.name.starts_with("x-takoform-") => {
            "exempt annotation key (current-profile.md §7.1)".to_owned()
        }
        None => "Draft 2020-12 keyword".to_owned(),
    };
    let documentation = k.rule.map(|code| {
        let info = code.info();
        let help = info
            .help
            .map(|h| format!("\nhelp: {h}"))
            .unwrap_or_default();
        format!(
            "{} {}: {}{help}\n(form-package explain {})",
            info.id, info.name, info.summary, info.id
        )
    });
    Offer {
        value: k.name.to_owned(),
        kind: lsp_types::CompletionItemKind::KEYWORD,
        detail,
        documentation,
        first: false,
    }
}

/// The `immutableFields` pointers of the definition's desired schema, from
/// its text when that is strict I-JSON with one, else from its last text
/// that was ([`Input::good`]).
fn pointer_offers(input: &Input<'_>) -> Option<(Vec<Offer>, bool)> {
    let desired = input.good?.get("desiredSchema")?;
    let (pointers, more) = immutable_pointers(desired);
    let offers = pointers
        .into_iter()
        .filter_map(|p| {
            let (schema, required) = crate::constraints::walk(desired, &p).ok()?;
            let documentation = ["description", "title"]
                .iter()
                .find_map(|k| schema.get(*k).and_then(Value::as_str))
                .map(str::to_owned);
            let ty = schema
                .get("type")
                .map_or_else(|| "any type".to_owned(), Value::to_string);
            Some(Offer {
                value: p,
                kind: lsp_types::CompletionItemKind::REFERENCE,
                detail: format!(
                    "desired property ({ty}{})",
                    if required { ", required" } else { "" }
                ),
                documentation,
                first: required,
            })
        })
        .collect();
    Some((offers, more))
}

/// The LSP item of offer number `i`: the edit replaces the name or string
/// under the cursor (or inserts at it), the text JSON-escaped; the label
/// shows package text escaped for display.
fn item(text: &str, c: &Cursor, i: usize, o: Offer) -> lsp_types::CompletionItem {
    use super::analysis::lsp_position;
    let bytes = text.as_bytes();
    let json = serde_json::to_string(&o.value).unwrap_or_default();
    let inner = json
        .strip_prefix('"')
        .and_then(|j| j.strip_suffix('"'))
        .unwrap_or_default()
        .to_owned();
    let (span, new_text, filter) = match (c.role, &c.token) {
        (Role::Key, Some(t)) => {
            let colon = if c.colon_follows { "" } else { ": " };
            let quoted = bytes.get(t.start) == Some(&b'"');
            let filter = if quoted { json.clone() } else { inner.clone() };
            (t.clone(), format!("{json}{colon}"), filter)
        }
        (Role::Key, None) => (c.offset..c.offset, format!("{json}: "), inner.clone()),
        (Role::Value, Some(t)) => {
            let end = if c.closed {
                t.end.saturating_sub(1)
            } else {
                t.end
            };
            ((t.start + 1).min(end)..end, inner.clone(), inner.clone())
        }
        (Role::Value, None) => (c.offset..c.offset, json.clone(), json.clone()),
    };
    let range = lsp_types::Range::new(
        lsp_position(bytes, span.start),
        lsp_position(bytes, span.end),
    );
    lsp_types::CompletionItem {
        label: crate::render::escape::text(&o.value).into_owned(),
        kind: Some(o.kind),
        detail: Some(o.detail),
        documentation: o.documentation.map(|d| {
            lsp_types::Documentation::MarkupContent(lsp_types::MarkupContent {
                kind: lsp_types::MarkupKind::PlainText,
                value: d,
            })
        }),
        sort_text: Some(format!("{}{i:05}", if o.first { 0 } else { 1 })),
        filter_text: Some(filter),
        text_edit: Some(lsp_types::CompletionTextEdit::Edit(
            lsp_types::TextEdit::new(range, new_text),
        )),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::pointer::JsonPointer;
    use proptest::prelude::*;

    /// A real corpus definition (`fixtures/NOTICE.md` gives its origin).
    const DEFINITION: &str = include_str!(
        "../../fixtures/packages/v1beta1/worker-version-0.1.0-54e6d25738e7/definition.json"
    );

    /// [`DEFINITION`]'s value, parsed once (as the server parses a
    /// document once).
    fn definition_value() -> &'static Value {
        static VALUE: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
        VALUE.get_or_init(|| {
            crate::json::strict::parse(DEFINITION.as_bytes())
                .unwrap()
                .value
        })
    }

    fn at(text: &str, marked: &str) -> Option<Cursor> {
        // `|` marks the cursor in `marked`; `text` is `marked` without it.
        let offset = marked.find('|').unwrap();
        assert_eq!(text, marked.replacen('|', "", 1));
        cursor(text, offset)
    }

    fn scan(marked: &str) -> Option<Cursor> {
        at(&marked.replacen('|', "", 1), marked)
    }

    fn t(p: &str) -> Vec<String> {
        JsonPointer::from(p).tokens()
    }

    #[test]
    fn half_typed_names_and_values_are_found() {
        // A name typed halfway, the string not closed, braces not closed.
        let c = scan("{\"apiVersion\": \"x\",\n  \"de|\n").unwrap();
        assert_eq!(
            (c.role, c.tokens.clone(), c.closed),
            (Role::Key, t(""), false)
        );
        assert_eq!(c.present, ["apiVersion"]);
        assert_eq!(c.root_strings, [("apiVersion".to_owned(), "x".to_owned())]);
        // A trailing comma: a name goes after it.
        let c = scan(r#"{"desiredSchema": {"type": "object", |"#).unwrap();
        assert_eq!(
            (c.role, c.tokens.clone(), c.token.clone()),
            (Role::Key, t("/desiredSchema"), None)
        );
        assert_eq!(c.present, ["type"]);
        // Names after the cursor count; the one under it does not.
        let c = scan(r#"{"ti|tle": 1, "kind": "K", "title": 2}"#).unwrap();
        assert_eq!(c.present, ["kind", "title"]);
        assert!(c.colon_follows);
        // A missing comma before the name.
        let c = scan("{\"a\": {\"b\": 1\n \"|\"}}").unwrap();
        assert_eq!((c.role, c.tokens), (Role::Key, t("/a")));
        // An unquoted word where a name goes.
        let c = scan("{\"a\": 1, ty|").unwrap();
        assert_eq!((c.role, c.token), (Role::Key, Some(9..11)));
        // Values: an array item, with the other items; a member value.
        let c = scan(r#"{"immutableFields": ["/a", "|", "/b"], "x": 1}"#).unwrap();
        assert_eq!(
            (c.role, c.tokens.clone(), c.in_array),
            (Role::Value, t("/immutableFields/1"), true)
        );
        assert_eq!(c.present, ["/a", "/b"]);
        let c = scan(r#"{"f": [{"desiredPath": "fix|tures/a.json"}]}"#).unwrap();
        assert_eq!(
            (c.role, c.tokens, c.in_array),
            (Role::Value, t("/f/0/desiredPath"), false)
        );
        assert!(c.present.is_empty());
        // Between tokens where a value goes: after a colon, after `[` or `,`.
        let c = scan(r#"{"role": |}"#).unwrap();
        assert_eq!((c.role, c.tokens, c.token), (Role::Value, t("/role"), None));
        let c = scan(r#"{"l": ["a", |"#).unwrap();
        assert_eq!(
            (c.role, c.tokens, c.in_array),
            (Role::Value, t("/l/1"), true)
        );
        assert_eq!(c.present, ["a"]);
    }

    #[test]
    fn no_cursor_where_nothing_goes() {
        for marked in [
            r#"{"a": 12|3}"#, // inside a number
            r#"{"a": 1 |}"#,  // after a value, no comma
            r#"{"a"| : 1}"#,  // after a name
            r#"|{"a": 1}"#,   // before the document
            r#"["x" |]"#,     // after an item, no comma
            "|",              // an empty document
        ] {
            assert_eq!(scan(marked), None, "{marked}");
        }
        // Past the end, inside a character.
        assert_eq!(cursor("{}", 3), None);
        assert_eq!(cursor("{\"é\": 1}", 3), None);
    }

    /// Every name and string value of a real definition, read by the
    /// tolerant scan at its first character, has the pointer the strict
    /// parser gives it.
    #[test]
    fn the_scan_agrees_with_the_strict_parser_on_a_real_definition() {
        let parsed = crate::json::strict::parse(DEFINITION.as_bytes()).unwrap();
        let mut checked = 0;
        for p in all_pointers(&parsed.value, JsonPointer::root()) {
            let entry = parsed.spans.entry(&p).unwrap();
            if let Some(key) = &entry.key {
                let c = cursor(DEFINITION, key.start + 1).unwrap();
                assert_eq!(
                    (c.role, c.tokens),
                    (Role::Key, p.parent().unwrap().tokens()),
                    "{p}"
                );
                checked += 1;
            }
            if p.resolve(&parsed.value).is_some_and(Value::is_string) {
                let c = cursor(DEFINITION, entry.value.start + 1).unwrap();
                assert_eq!((c.role, c.tokens), (Role::Value, p.tokens()), "{p}");
                checked += 1;
            }
        }
        assert!(checked > 500, "{checked}");
    }

    fn all_pointers(v: &Value, at: JsonPointer) -> Vec<JsonPointer> {
        let mut out = vec![at.clone()];
        match v {
            Value::Object(m) => {
                for (k, c) in m {
                    out.extend(all_pointers(c, at.child(k)));
                }
            }
            Value::Array(a) => {
                for (i, c) in a.iter().enumerate() {
                    out.extend(all_pointers(c, at.index(i)));
                }
            }
            _ => {}
        }
        out
    }

    fn input(text: &str, offset: usize, kind: DocumentKind) -> Input<'_> {
        Input {
            text,
            offset,
            kind,
            good: Some(definition_value()),
            files: &[],
            stage_schema: None,
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Any truncation of a real definition, any offset in it: no
        /// panic; a name or string wholly before the cut reads as in the
        /// whole text; every edit offered lies in the text around the
        /// cursor.
        #[test]
        fn truncations_and_offsets_never_panic(cut in 0usize..26000, at in 0usize..26000) {
            let mut cut = cut.min(DEFINITION.len());
            while !DEFINITION.is_char_boundary(cut) {
                cut -= 1;
            }
            let text = &DEFINITION[..cut];
            let offset = at.min(cut + 1);
            let family = crate::profile::Family::RetainedBeta;
            for kind in [DocumentKind::Definition(family), DocumentKind::Index, DocumentKind::Contract] {
                if let Some(list) = complete(&input(text, offset, kind)) {
                    let here = super::super::analysis::lsp_position(text.as_bytes(), offset);
                    for item in list.items {
                        let Some(lsp_types::CompletionTextEdit::Edit(e)) = item.text_edit else {
                            panic!("an item without an edit");
                        };
                        prop_assert!(e.range.start <= here && here <= e.range.end, "{e:?} {here:?}");
                    }
                }
            }
            let whole = cursor(DEFINITION, offset);
            let part = cursor(text, offset);
            if let (Some(w), Some(p)) = (&whole, &part) {
                if w.token.as_ref().is_some_and(|t| t.end < cut) {
                    prop_assert_eq!((&w.role, &w.tokens), (&p.role, &p.tokens));
                }
            }
        }
    }

    #[test]
    fn items_for_each_place_of_a_definition() {
        let family = crate::profile::Family::RetainedBeta;
        let def = DocumentKind::Definition(family);
        let labels = |marked: &str, kind| {
            let text = marked.replacen('|', "", 1);
            let offset = marked.find('|').unwrap();
            let files = [
                "fixtures/desired.json".to_owned(),
                "package-index.json".to_owned(),
            ];
            let i = Input {
                text: &text,
                offset,
                kind,
                good: Some(definition_value()),
                files: &files,
                stage_schema: None,
            };
            complete(&i).map(|l| l.items.into_iter().map(|i| i.label).collect::<Vec<_>>())
        };
        // The definition's own members, but those present.
        let root = labels(
            "{\"apiVersion\": \"edge.forms.takoform.com/v1beta1\", \"|",
            def,
        )
        .unwrap();
        assert!(root.contains(&"desiredSchema".to_owned()), "{root:?}");
        assert!(!root.contains(&"apiVersion".to_owned()));
        // Inside an inline schema: this profile's keywords, not the refused.
        let kw = labels(
            r#"{"desiredSchema": {"type": "object", "properties": {"a": {"|"}}}}"#,
            def,
        )
        .unwrap();
        assert!(
            kw.contains(&"additionalProperties".to_owned())
                && kw.contains(&"x-takoform-binding".to_owned())
        );
        assert!(!kw.contains(&"patternProperties".to_owned()) && !kw.contains(&"$id".to_owned()));
        // immutableFields: the desired schema's properties, but those listed.
        let im = labels(r#"{"immutableFields": ["/worker", "|"]}"#, def).unwrap();
        assert!(
            im.contains(&"/bundle".to_owned()) && !im.contains(&"/worker".to_owned()),
            "{im:?}"
        );
        // A fixture path: the package's files, not the index.
        let f = labels(r#"{"conformanceFixtures": [{"desiredPath": "|"}]}"#, def).unwrap();
        assert_eq!(f, ["fixtures/desired.json"]);
        // Near misses: a title, a name of a properties map, a key already there.
        assert_eq!(labels(r#"{"title": "|"}"#, def), None);
        assert_eq!(
            labels(r#"{"desiredSchema": {"properties": {"|"}}}"#, def),
            None
        );
        let once = labels(
            r#"{"conformanceFixtures": [{"name": "a", "desiredPath": "x", "observedPath": "y", "outputPath": "z", "|"}]}"#,
            def,
        );
        assert_eq!(once, None);
        // A value where none is typed yet: quoted.
        let text = r#"{"role": }"#;
        let gap = Input {
            text,
            offset: 9,
            kind: def,
            good: None,
            files: &[],
            stage_schema: None,
        };
        let item = complete(&gap).unwrap().items.remove(0);
        let Some(lsp_types::CompletionTextEdit::Edit(e)) = item.text_edit else {
            panic!("{item:?}");
        };
        assert_eq!(
            (item.label.as_str(), e.new_text.as_str()),
            ("identity", "\"identity\"")
        );
        assert_eq!(e.range.start, e.range.end);
        // A closed set of strings: its values, but the items listed.
        let role = labels(r#"{"role": "|"}"#, def).unwrap();
        assert!(role.contains(&"revision".to_owned()), "{role:?}");
        let caps = labels(r#"{"lifecycleCapabilities": ["read", "|"]}"#, def).unwrap();
        assert!(caps.contains(&"create".to_owned()) && !caps.contains(&"read".to_owned()));
        // A Binding or Interface Definition, by its apiVersion.
        let contract = labels(
            r#"{"apiVersion": "interfaces.takoform.com/v1alpha1", "|"}"#,
            DocumentKind::Contract,
        )
        .unwrap();
        assert!(contract.contains(&"operations".to_owned()), "{contract:?}");
        assert_eq!(
            labels(r#"{"|"}"#, DocumentKind::Contract),
            None,
            "no apiVersion"
        );
        // The index, by its own schema.
        let idx = labels(
            r#"{"apiVersion": "packages.forms.takoform.com/v1alpha5", "formRef": {"|"}}"#,
            DocumentKind::Index,
        )
        .unwrap();
        assert!(idx.contains(&"schemaDigest".to_owned()), "{idx:?}");
    }

    #[test]
    fn a_fixture_is_described_by_its_stage_schema() {
        let def = serde_json::json!({
            "desiredSchema": {"properties": {"mode": {"enum": ["a", "b"]},
                "box": {"$ref": "#/$defs/box"}},
                "$defs": {"box": {"type": "object", "properties": {"size": {"type": "integer"}}}}},
            "observedSchema": {"properties": {"seen": {"type": "string"}}},
            "conformanceFixtures": [{"name": "ok", "desiredPath": "f/d.json", "observedPath": "f/o.json"}],
            "negativeConformanceFixtures": [{"name": "bad", "stage": "observed", "inputPath": "f/n.json"}]});
        let stage = |rel: &str| fixture_stage(&def, rel).map(|s| s.to_string());
        let observed = Some(def["observedSchema"].to_string());
        assert_eq!(stage("f/d.json"), Some(def["desiredSchema"].to_string()));
        assert_eq!(stage("f/o.json"), observed);
        assert_eq!(stage("f/n.json"), observed);
        assert_eq!(stage("f/other.json"), None, "a file not listed");
        let labels = |marked: &str| {
            let text = marked.replacen('|', "", 1);
            let i = Input {
                text: &text,
                offset: marked.find('|').unwrap(),
                kind: DocumentKind::Fixture,
                good: None,
                files: &[],
                stage_schema: fixture_stage(&def, "f/d.json"),
            };
            complete(&i).map(|l| l.items.into_iter().map(|i| i.label).collect::<Vec<_>>())
        };
        // Through a local `$ref`; a closed set; near miss: an undeclared member.
        assert_eq!(labels(r#"{"box": {"|"#).unwrap(), ["size"]);
        assert_eq!(labels(r#"{"mode": "|"}"#).unwrap(), ["a", "b"]);
        assert_eq!(labels(r#"{"other": {"|"}}"#), None);
    }

    #[test]
    fn pointers_are_the_walks_and_escaped() {
        let desired = serde_json::json!({"properties": {
            "a/b": {"type": "object", "properties": {"c~": {"type": "string"}}},
            "": {"type": "string"}, "n": true}});
        let (p, more) = immutable_pointers(&desired);
        assert_eq!(p, ["/a~1b", "/a~1b/c~0"]);
        assert!(!more);
    }
}

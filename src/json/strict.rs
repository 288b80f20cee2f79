//! The strict I-JSON reader with a JSON Pointer → byte span map.
//!
//! Implements `verifier-rules.md` §2.1 (J1–J6): every JSON input of a package
//! goes through [`parse`] before any other decoding. The reader is a
//! descent parser without recursion: open containers live on an explicit
//! stack bounded by [`MAX_DEPTH`], and the 257th nested container is refused
//! when its bracket is seen, so hostile inputs (100,000 nested `[`) cannot
//! overflow the stack.
//!
//! Besides the `serde_json::Value`, [`parse`] returns a [`SpanIndex`] that maps
//! the JSON Pointer of every value in the document to the byte range of its
//! token (and, for object members, of the member-name token), so that
//! diagnostics placed by pointer can be rendered at `line:column`
//! ([`line_col`]).
//!
//! J7 (the top level must be an object or array) is *not* checked here: a
//! top-level scalar parses fine and is refused by
//! [`crate::canonical::canonicalize`].

use std::collections::HashMap;
use std::ops::Range;

use crate::json::pointer::{push_decimal, JsonPointer};

/// The most nested arrays/objects a document may have (§2.1 J6). A document
/// with 256 nested containers is accepted; the 257th level is refused with
/// `JSON nesting exceeds 256 containers`.
pub const MAX_DEPTH: usize = crate::limits::JSON_NESTING;

/// A successfully parsed document: its value and the span map.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The document. Numbers follow the rule of [`parse`]: plain integer
    /// literals that fit `i64`/`u64` are integers, everything else is `f64`.
    pub value: serde_json::Value,
    /// Byte spans of every value (and member name) by JSON Pointer.
    pub spans: SpanIndex,
}

/// Which kind of strict-reader refusal happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParseErrorKind {
    /// §2.1 J1: the input is not valid UTF-8. Maps to [`Code::InvalidUtf8`](crate::codes::Code::InvalidUtf8).
    InvalidUtf8,
    /// §2.1 J2–J6: every other I-JSON refusal (a leading byte-order mark,
    /// which the reference meets as a bad first token, grammar, duplicate names,
    /// string escapes and surrogates, numbers, nesting). Maps to
    /// [`Code::InvalidIJson`](crate::codes::Code::InvalidIJson).
    Syntax,
}

/// Why [`parse`] refused its input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// UTF-8 or syntax.
    pub kind: ParseErrorKind,
    /// The reason, using the reference fragments of `verifier-rules.md` §2.1
    /// (e.g. `duplicate object name "qty"`, `negative zero "-0" is
    /// forbidden`, `unexpected trailing byte at offset 12`). The reference
    /// wraps it as `invalid I-JSON: <detail>`; this text is not wrapped.
    pub detail: String,
    /// Byte range of the offending token in the input: the second name token
    /// of a duplicate, the comma of a trailing comma, the number literal of a
    /// bad number, the escape of a bad escape, the first trailing byte, the
    /// invalid UTF-8 sequence, the opening bracket of the 257th container.
    /// An empty range at the input length means "at end of input".
    pub span: Range<usize>,
    /// Pointer of the innermost value being read when the error was found
    /// (for a duplicate name: the object holding it); root when unknown.
    pub pointer: JsonPointer,
}

impl ParseError {
    /// The reference verifier's one-line message for this refusal, as
    /// `canonicalize`/`digest` print it first (N1 findings §3.3; checked
    /// against the oracle): `I-JSON input is not valid UTF-8`, else
    /// `invalid I-JSON: <detail>` with our detail reduced to the
    /// reference's words: no parenthesised or `: …` explanation, no offset
    /// where the reference gives none (bad fractions, exponents, escapes,
    /// unterminated strings), the offset of the digit after a leading zero
    /// and of the hex digits of a bad `\u` escape, as the reference counts.
    /// A detail with no known rewrite is kept as it is.
    pub fn reference_line(&self) -> String {
        if self.kind == ParseErrorKind::InvalidUtf8 {
            return "I-JSON input is not valid UTF-8".to_owned();
        }
        format!("invalid I-JSON: {}", reference_detail(&self.detail))
    }
}

/// See [`ParseError::reference_line`]: the reference's words for one of our
/// syntax details (whose shapes are those [`parse`] writes).
fn reference_detail(detail: &str) -> String {
    if let Some(rest) = detail.strip_prefix("object name: ") {
        return format!("object name: {}", reference_detail(rest));
    }
    // What the reference meets first at a trailing comma or a byte-order
    // mark (our detail names the cause, then the reference's reading).
    let number_at = |rest: &str| rest.split(':').next().and_then(|n| n.parse::<usize>().ok());
    if let Some(at) = detail
        .strip_prefix("trailing comma before ']' at offset ")
        .and_then(number_at)
    {
        return format!("invalid number at offset {at}");
    }
    if let Some(at) = detail
        .strip_prefix("trailing comma before '}' at offset ")
        .and_then(number_at)
    {
        return format!("object name: expected string at offset {at}");
    }
    if detail.starts_with("byte-order mark at offset 0") {
        return "invalid number at offset 0".to_owned();
    }
    let d = detail.split(" (").next().unwrap_or(detail);
    let offset_of = |s: &str| -> Option<usize> { s.rsplit(" at offset ").next()?.parse().ok() };
    for plain in [
        "fraction has no digits",
        "exponent has no digits",
        "unterminated string",
        "unterminated escape",
    ] {
        if d.starts_with(plain) {
            return plain.to_owned();
        }
    }
    if let Some(rest) = d.strip_prefix("invalid escape ") {
        return format!(
            "invalid escape {}",
            rest.split(" at offset").next().unwrap_or(rest)
        );
    }
    if d.starts_with("unescaped control character ") {
        if let Some(at) = offset_of(d) {
            return format!("unescaped control character at offset {at}");
        }
    }
    if d.starts_with("truncated Unicode escape") || d.starts_with("invalid Unicode escape") {
        if let Some(at) = offset_of(d) {
            return format!("invalid Unicode escape at offset {}", at + 2);
        }
    }
    if let Some(rest) = d.strip_prefix("leading zero in number \"") {
        if let Some(at) = offset_of(d) {
            let sign = usize::from(rest.starts_with('-'));
            return format!("leading zero at offset {}", at + 1 + sign);
        }
    }
    d.to_owned()
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            ParseErrorKind::InvalidUtf8 => write!(f, "{}", self.detail),
            ParseErrorKind::Syntax => write!(f, "invalid I-JSON: {}", self.detail),
        }
    }
}

impl std::error::Error for ParseError {}

/// Where one value sits in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpanEntry {
    /// Byte range of the value token; for containers the whole object/array
    /// from the opening to the closing bracket inclusive; for strings
    /// including the quotes.
    pub value: Range<usize>,
    /// Byte range of the member-name string token (with quotes) when the value
    /// is an object member; `None` for the root and array elements.
    pub key: Option<Range<usize>>,
    /// True when the value is a number written as a plain integer literal
    /// (optional `-` and digits, no fraction, no exponent), whatever its
    /// magnitude. The raw literal is `source[value.clone()]`
    /// (see [`SpanIndex::raw`]).
    pub integer_literal: bool,
}

/// JSON Pointer → byte spans of a parsed document.
///
/// Keys are the escaped pointer texts ([`JsonPointer::as_str`]). Every value
/// of the document has exactly one entry.
#[derive(Clone, Debug, Default)]
pub struct SpanIndex {
    entries: Entries,
}

impl SpanIndex {
    /// Byte range of the value at `p` (whole object/array for containers,
    /// quotes included for strings); `None` when `p` is not in the document.
    pub fn value_span(&self, p: &JsonPointer) -> Option<Range<usize>> {
        self.entries.get(p.as_str()).map(|e| e.value.clone())
    }

    /// Byte range of the member-name string token (quotes included) of the
    /// member at `p`; `None` for the root, array elements and unknown pointers.
    pub fn key_span(&self, p: &JsonPointer) -> Option<Range<usize>> {
        self.entries.get(p.as_str()).and_then(|e| e.key.clone())
    }

    /// The whole entry of the value at `p`.
    pub fn entry(&self, p: &JsonPointer) -> Option<&SpanEntry> {
        self.entries.get(p.as_str())
    }

    /// Byte range of the raw token at `p` — identical to
    /// [`SpanIndex::value_span`]; for a number this is its literal text
    /// (`source[range]`, e.g. `1E+2`, `9223372036854775807`).
    pub fn raw(&self, p: &JsonPointer) -> Option<Range<usize>> {
        self.value_span(p)
    }

    /// The raw token text at `p`, sliced from `source` (which must be the
    /// bytes that were parsed). `None` for unknown pointers.
    pub fn raw_text<'a>(&self, source: &'a [u8], p: &JsonPointer) -> Option<&'a str> {
        let r = self.value_span(p)?;
        std::str::from_utf8(source.get(r)?).ok()
    }

    /// `Some(true)` when the value at `p` is a number written as a plain
    /// integer literal, `Some(false)` for any other value, `None` for unknown
    /// pointers.
    pub fn is_integer_literal(&self, p: &JsonPointer) -> Option<bool> {
        self.entries.get(p.as_str()).map(|e| e.integer_literal)
    }

    /// Number of values in the document.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when no value was recorded (never the case after a successful
    /// [`parse`]).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// All (escaped pointer text, entry) pairs, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &SpanEntry)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v))
    }
}

/// 1-based line and 1-based column of byte `offset` in `source`.
///
/// Lines end at LF, CR LF or a lone CR (SARIF 2.1.0 §3.30.2). The column
/// counts Unicode code points (UTF-8 lead bytes; any byte that is not a
/// continuation byte counts as one, so invalid UTF-8 still gets a position).
/// Offsets past the end are clamped to `source.len()`. The renderers use the
/// same rule through `json::position::LineIndex` (a test proves they agree).
pub fn line_col(source: &[u8], offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let before = source.get(..offset).unwrap_or(source);
    let mut line = 1;
    let mut line_start = 0;
    for (i, &b) in before.iter().enumerate() {
        if b == b'\n' || (b == b'\r' && source.get(i + 1) != Some(&b'\n')) {
            line += 1;
            line_start = i + 1;
        }
    }
    let col = 1 + before
        .get(line_start..)
        .unwrap_or_default()
        .iter()
        .filter(|&&b| !(0x80..0xC0).contains(&b))
        .count();
    (line, col)
}

/// Parses one document under the strict I-JSON rules of
/// `verifier-rules.md` §2.1.
///
/// * J1: the whole input must be UTF-8; a leading BOM is refused
///   ([`ParseErrorKind::InvalidUtf8`]).
/// * J2: RFC 8259 grammar, whitespace only SP HT LF CR, one value then only
///   whitespace.
/// * J3: member names unique after unescaping.
/// * J4: no raw control characters in strings; only the 8 short escapes and
///   `\uXXXX`; surrogates must pair; `\u0000`, DEL and non-characters are
///   allowed.
/// * J5: RFC 8259 number grammar; the binary64 value must be finite; a
///   literal with a leading `-` whose binary64 value is zero is refused.
/// * J6: at most [`MAX_DEPTH`] nested containers.
///
/// Numbers: a plain integer literal that fits `i64` (negative) or `u64`
/// (non-negative) becomes that integer, anything else the `f64` of
/// `str::parse::<f64>` (correctly rounded) — the same values
/// `serde_json::from_slice` gives. Top-level scalars are accepted (J7 is the
/// canonicaliser's job).
pub fn parse(bytes: &[u8]) -> Result<Parsed, ParseError> {
    parse_impl(bytes, true, false, true).map(|(value, entries, _)| Parsed {
        value,
        spans: SpanIndex { entries },
    })
}

/// [`parse`] without the span map: the same value and the same refusals
/// (same kind, detail, span and pointer), at a fraction of the cost. For
/// documents whose spans are needed only if a finding names them; parse
/// again with [`parse`] then.
///
/// # Errors
/// Exactly those of [`parse`].
pub fn parse_value(bytes: &[u8]) -> Result<serde_json::Value, ParseError> {
    parse_impl(bytes, false, false, true).map(|(value, _, _)| value)
}

/// [`parse_value`] that also keeps the literal text of every number
/// (e.g. `1.0000000000000001`, `1E+2`), in document order: the order of a
/// pre-order walk of the value that visits object members in their source
/// order (serde_json's `preserve_order`) and array items by index. The
/// texts are what [`crate::engine::numbers`] compares exactly (§12 E4).
/// A number whose value is an integer (`i64`/`u64`, exact without its
/// text, and never looked up by the engine) has an empty text, which costs
/// no allocation: only the texts of `f64` values are kept.
///
/// # Errors
/// Exactly those of [`parse`].
pub fn parse_value_with_numbers(
    bytes: &[u8],
) -> Result<(serde_json::Value, Vec<Box<str>>), ParseError> {
    parse_impl(bytes, false, true, true).map(|(value, _, numbers)| (value, numbers))
}

/// The span map of [`parse`] alone: the same spans and the same refusals,
/// without building the value (no member is inserted, no string kept). For
/// a document already read whose findings must now be located (issue 38:
/// building the value again was most of the cost of locating).
///
/// # Errors
/// Exactly those of [`parse`].
pub fn spans(bytes: &[u8]) -> Result<SpanIndex, ParseError> {
    parse_impl(bytes, true, false, false).map(|(_, entries, _)| SpanIndex { entries })
}

/// [`spans`] kept to the values at `pointers` and at each of their
/// ancestors: the entries [`crate::locate::pointer_span`] reads to locate
/// those pointers (their member names, values, or nearest ancestor that
/// resolves), so every lookup of one of them gives what the whole map
/// gives. For locating the findings of a document the strict reader
/// accepted before (issue 38: the whole map of each file a finding names
/// was 7 % of a corpus run and a fifth of its page faults, kept until the
/// report is printed). A value no given pointer is at or under is stepped
/// over, not read (issue 38: reading every value of each definition a note
/// names was ~2 % of a corpus run). So on bytes the reader did not accept
/// the answer is not [`spans`]'s: a duplicate member name is not looked
/// for, nor anything inside a value stepped over.
///
/// # Errors
/// Those of [`spans`] but duplicate names and what lies inside a value
/// stepped over.
pub fn spans_at<'p>(
    bytes: &[u8],
    pointers: impl IntoIterator<Item = &'p JsonPointer>,
) -> Result<SpanIndex, ParseError> {
    let mut keep = ahash::AHashSet::new();
    for p in pointers {
        let mut at = Some(p.clone());
        while let Some(ptr) = at {
            if !keep.insert(ptr.as_str().to_owned()) {
                break;
            }
            at = ptr.parent();
        }
    }
    // What the reader refuses before reading values (a byte-order mark,
    // bytes that are not UTF-8) is refused as [`spans`] refuses it.
    let text = match std::str::from_utf8(bytes) {
        Ok(text) if !bytes.starts_with(&[0xEF, 0xBB, 0xBF]) => text,
        _ => return spans(bytes),
    };
    run_parser(bytes, text, true, false, true, false, Some(keep))
        .map(|(_, entries, _)| SpanIndex { entries })
}

/// [`parse`] that also keeps the literal text of every number, as
/// [`parse_value_with_numbers`] does: the value, the span map and the
/// numbers in one pass (for a document a caller both checks and locates
/// findings in: the Form Definition `compat` and `family` go on with).
///
/// # Errors
/// Exactly those of [`parse`].
pub fn parse_with_numbers(bytes: &[u8]) -> Result<(Parsed, Vec<Box<str>>), ParseError> {
    parse_impl(bytes, true, true, true).map(|(value, entries, numbers)| {
        (
            Parsed {
                value,
                spans: SpanIndex { entries },
            },
            numbers,
        )
    })
}

/// True when [`parse`] accepts `bytes` as an object or an array and `flag`
/// returns false for every member name of it (passed unescaped, in
/// document order), read without building the value. False when the
/// document is refused, is a top-level scalar, or has a flagged name (the
/// scan stops there): read it with [`parse_value`] then, for its value or
/// its exact refusal.
///
/// For payloads no check reads as a tree (issue 11, speed): the same
/// grammar and I-JSON rules as [`parse`] (J1–J6), at a fraction of the cost
/// of building a `serde_json::Value` and dropping it again.
pub fn accepts_unflagged(bytes: &[u8], flag: &mut dyn FnMut(&str) -> bool) -> bool {
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return false;
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let mut p = Parser {
        src: bytes,
        text,
        pos: 0,
        ptr: String::new(),
        track_ptr: false,
        spans: Entries::default(),
        record_spans: false,
        numbers: None,
        values: true,
        keep: None,
    };
    p.skip_ws();
    if !matches!(p.peek(), Some(b'{' | b'[')) || p.scan_document(flag).is_err() {
        return false;
    }
    p.skip_ws();
    p.pos == bytes.len()
}

/// The span map: every value of a document by its pointer text, hashed by
/// `ahash` (SipHash over 240,000 pointers was half of reading a 2 MB
/// definition with spans, issue 35 item 4).
type Entries = HashMap<String, SpanEntry, ahash::RandomState>;

fn parse_impl(
    bytes: &[u8],
    record_spans: bool,
    record_numbers: bool,
    values: bool,
) -> Result<(serde_json::Value, Entries, Vec<Box<str>>), ParseError> {
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Err(ParseError {
            kind: ParseErrorKind::Syntax,
            detail: "byte-order mark at offset 0: the input starts with the UTF-8 byte-order mark EF BB BF, which I-JSON does not allow: save the file without it (the reference reads it as an invalid number at offset 0)"
                .to_owned(),
            span: 0..3,
            pointer: JsonPointer::root(),
        });
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let at = e.valid_up_to();
            let len = e.error_len().unwrap_or(bytes.len() - at);
            return Err(ParseError {
                kind: ParseErrorKind::InvalidUtf8,
                detail: format!(
                    "invalid UTF-8 byte 0x{:02X} at offset {at}: I-JSON input is not valid UTF-8",
                    bytes.get(at).copied().unwrap_or(0)
                ),
                span: at..at + len,
                pointer: JsonPointer::root(),
            });
        }
    };
    // Without spans the pointer text is needed only by a refusal: the
    // document is read without it, and a refused one is read again with it
    // (the same bytes give the same refusal, now with its pointer).
    match run_parser(
        bytes,
        text,
        record_spans,
        record_numbers,
        record_spans,
        values,
        None,
    ) {
        Err(_) if !record_spans => {
            run_parser(bytes, text, false, record_numbers, true, values, None)
        }
        done => done,
    }
}

/// One pass of the [`Parser`] over `text` (`bytes` as checked UTF-8);
/// `track_ptr`: keep the pointer text of the value being read (always when
/// `record_spans`); `keep`: record the spans of only these pointer texts
/// ([`spans_at`]), else of every value.
fn run_parser(
    bytes: &[u8],
    text: &str,
    record_spans: bool,
    record_numbers: bool,
    track_ptr: bool,
    values: bool,
    keep: Option<ahash::AHashSet<String>>,
) -> Result<(serde_json::Value, Entries, Vec<Box<str>>), ParseError> {
    let capacity = keep.as_ref().map_or(bytes.len() / 16, |keep| keep.len());
    let mut p = Parser {
        src: bytes,
        text,
        pos: 0,
        ptr: String::new(),
        track_ptr,
        // Sized once for a value per 16 bytes (a 2 MB definition holds
        // about 120,000): growing it by doubling rewrote every entry and
        // touched each old table's pages (a third of `compat`'s page
        // faults on an 80,000-value `enum`, issue 35 item 4). Only the
        // table's control bytes are touched until entries are written.
        spans: if record_spans {
            Entries::with_capacity_and_hasher(capacity, ahash::RandomState::default())
        } else {
            Entries::default()
        },
        record_spans,
        numbers: record_numbers.then(Vec::new),
        values,
        keep,
    };
    p.skip_ws();
    let value = p.document()?;
    p.skip_ws();
    if p.pos < bytes.len() {
        return Err(p.err(
            format!("unexpected trailing byte at offset {}", p.pos),
            p.pos..p.pos + 1,
        ));
    }
    Ok((value, p.spans, p.numbers.unwrap_or_default()))
}

struct Parser<'a> {
    src: &'a [u8],
    /// `src` as text (it was checked to be UTF-8 before parsing).
    text: &'a str,
    pos: usize,
    /// Escaped pointer text of the value being read (kept only when
    /// `track_ptr`; empty otherwise).
    ptr: String,
    /// Whether `ptr` is kept (spans are recorded, or a refusal is being
    /// read again for its pointer).
    track_ptr: bool,
    spans: Entries,
    /// Whether `spans` is filled (when not, duplicate member names are
    /// found in the object being built instead).
    record_spans: bool,
    /// The literal text of every number read so far, in document order,
    /// when asked for ([`parse_value_with_numbers`]).
    numbers: Option<Vec<Box<str>>>,
    /// Whether the value is built (false for [`spans`]: strings are read
    /// but not kept, members are not inserted; the spans are the same).
    values: bool,
    /// When given, the only pointer texts whose spans are recorded
    /// ([`spans_at`]).
    keep: Option<ahash::AHashSet<String>>,
}

type PResult<T> = Result<T, ParseError>;

/// One open container of [`Parser::document`].
enum Frame {
    Array {
        /// Offset of `[`.
        start: usize,
        /// Member-name span of the array itself.
        key: Option<Range<usize>>,
        /// Length of the array's pointer text.
        base_len: usize,
        items: Vec<serde_json::Value>,
    },
    Object {
        /// Offset of `{`.
        start: usize,
        /// Member-name span of the object itself.
        key: Option<Range<usize>>,
        /// Length of the object's pointer text.
        base_len: usize,
        map: serde_json::Map<String, serde_json::Value>,
        /// Name of the member whose value is being read.
        name: String,
    },
}

impl<'a> Parser<'a> {
    fn err(&self, detail: String, span: Range<usize>) -> ParseError {
        ParseError {
            kind: ParseErrorKind::Syntax,
            detail,
            span,
            pointer: JsonPointer::from(self.ptr.as_str()),
        }
    }

    fn eof(&self) -> ParseError {
        let n = self.src.len();
        self.err("unexpected end of input".to_owned(), n..n)
    }

    /// The end of input where a delimiter was expected, worded as the
    /// reference words it (`expected ',' or ']' at offset N`, `object name:
    /// expected string at offset N`): `what` is a quoted delimiter list, or
    /// a whole phrase that already says "expected".
    fn eof_expecting(&self, what: &str) -> ParseError {
        let n = self.src.len();
        let detail = if what.contains("expected") {
            format!("{what} at offset {n}")
        } else {
            format!("expected {what} at offset {n}")
        };
        self.err(detail, n..n)
    }

    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    /// The text around a trailing comma for its message: up to 24 bytes
    /// before the comma at `comma` (from a character boundary) through the
    /// closing bracket at `close`, each run of whitespace one space, in
    /// backticks (`` `"large", ]` ``).
    fn excerpt(&self, comma: usize, close: usize) -> String {
        let mut from = comma.saturating_sub(24);
        while from > 0 && self.src.get(from).is_some_and(|b| (0x80..0xC0).contains(b)) {
            from -= 1;
        }
        let bytes = self.src.get(from..=close).unwrap_or_default();
        let text = String::from_utf8_lossy(bytes);
        let flat: Vec<&str> = text.split_whitespace().collect();
        let more = if from > 0 { "…" } else { "" };
        format!("`{more}{}`", flat.join(" "))
    }

    /// Length in bytes of the UTF-8 character starting at `at` (input is
    /// known valid UTF-8; 1 at the end).
    fn char_len(&self, at: usize) -> usize {
        match self.src.get(at) {
            Some(b) if *b >= 0xF0 => 4,
            Some(b) if *b >= 0xE0 => 3,
            Some(b) if *b >= 0xC0 => 2,
            _ => 1,
        }
    }

    /// Reads one whole value at `self.pos` (whitespace already skipped)
    /// without recursion: open containers live on an explicit stack bounded
    /// by [`MAX_DEPTH`]. Records the span of every value under its pointer.
    fn document(&mut self) -> PResult<serde_json::Value> {
        let mut stack: Vec<Frame> = Vec::new();
        // Member-name span of the value about to be read.
        let mut key: Option<Range<usize>> = None;
        'values: loop {
            let start = self.pos;
            let mut integer_literal = false;
            // A value no kept pointer is at or under ([`spans_at`]) is
            // stepped over, not read: nothing in it is recorded.
            let skipped = self
                .keep
                .as_ref()
                .is_some_and(|keep| !keep.contains(self.ptr.as_str()));
            let mut value = match self.peek() {
                None => return Err(self.eof()),
                Some(_) if skipped => {
                    self.skip_accepted_value();
                    serde_json::Value::Null
                }
                Some(open @ (b'{' | b'[')) => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(self.err(
                            format!("JSON nesting exceeds {MAX_DEPTH} containers"),
                            start..start + 1,
                        ));
                    }
                    self.pos += 1;
                    self.skip_ws();
                    let base_len = self.ptr.len();
                    if open == b'{' {
                        if self.peek() == Some(b'}') {
                            self.pos += 1;
                            serde_json::Value::Object(serde_json::Map::new())
                        } else {
                            let (name, name_span) = self.member_name(None, None)?;
                            stack.push(Frame::Object {
                                start,
                                key: key.take(),
                                base_len,
                                map: serde_json::Map::new(),
                                name,
                            });
                            key = Some(name_span);
                            continue 'values;
                        }
                    } else if self.peek() == Some(b']') {
                        self.pos += 1;
                        serde_json::Value::Array(Vec::new())
                    } else {
                        stack.push(Frame::Array {
                            start,
                            key: key.take(),
                            base_len,
                            items: Vec::new(),
                        });
                        if self.track_ptr {
                            self.ptr.push_str("/0");
                        }
                        continue 'values;
                    }
                }
                Some(b'"') if self.values => serde_json::Value::String(self.string()?),
                Some(b'"') => {
                    self.string_cow()?;
                    serde_json::Value::Null
                }
                Some(b't') => self.literal("true", serde_json::Value::Bool(true))?,
                Some(b'f') => self.literal("false", serde_json::Value::Bool(false))?,
                Some(b'n') => self.literal("null", serde_json::Value::Null)?,
                Some(_) => {
                    let (n, int) = self.number()?;
                    integer_literal = int;
                    if let Some(numbers) = self.numbers.as_mut() {
                        // Integers are exact without their text (see
                        // `parse_value_with_numbers`): an empty box allocates nothing.
                        numbers.push(if n.is_f64() {
                            Box::from(self.text.get(start..self.pos).unwrap_or(""))
                        } else {
                            Box::default()
                        });
                    }
                    serde_json::Value::Number(n)
                }
            };
            self.record(start, key.take(), integer_literal);
            // Hand the finished value to its container; close every container
            // that ends here.
            loop {
                let Some(frame) = stack.last_mut() else {
                    return Ok(value);
                };
                match frame {
                    Frame::Array {
                        base_len, items, ..
                    } => {
                        self.ptr.truncate(*base_len);
                        items.push(value);
                        let next = items.len();
                        self.skip_ws();
                        match self.peek() {
                            None => return Err(self.eof_expecting("',' or ']'")),
                            Some(b',') => {
                                let comma = self.pos;
                                self.pos += 1;
                                self.skip_ws();
                                if self.peek() == Some(b']') {
                                    let at = self.pos;
                                    let near = self.excerpt(comma, at);
                                    return Err(self.err(
                                        format!(
                                            "trailing comma before ']' at offset {at}: {near}: remove the comma after the last item (the reference reads it as an invalid number at offset {at})"
                                        ),
                                        comma..comma + 1,
                                    ));
                                }
                                if self.track_ptr {
                                    self.ptr.push('/');
                                    push_decimal(&mut self.ptr, next);
                                }
                                continue 'values;
                            }
                            Some(b']') => self.pos += 1,
                            Some(_) => {
                                let at = self.pos;
                                return Err(self.err(
                                    format!("expected ',' or ']' at offset {at}"),
                                    at..at + self.char_len(at),
                                ));
                            }
                        }
                    }
                    Frame::Object {
                        base_len,
                        map,
                        name,
                        ..
                    } => {
                        self.ptr.truncate(*base_len);
                        if self.values {
                            map.insert(std::mem::take(name), value);
                        }
                        self.skip_ws();
                        match self.peek() {
                            None => return Err(self.eof_expecting("',' or '}'")),
                            Some(b',') => {
                                let comma = self.pos;
                                self.pos += 1;
                                self.skip_ws();
                                let (next, next_span) = self.member_name(Some(comma), Some(map))?;
                                *name = next;
                                key = Some(next_span);
                                continue 'values;
                            }
                            Some(b'}') => self.pos += 1,
                            Some(_) => {
                                let at = self.pos;
                                return Err(self.err(
                                    format!("expected ',' or '}}' at offset {at}"),
                                    at..at + self.char_len(at),
                                ));
                            }
                        }
                    }
                }
                // The container on top of the stack is closed: pop it and
                // record it (self.ptr is its pointer again).
                let (start, container_key, closed) = match stack.pop() {
                    Some(Frame::Array {
                        start, key, items, ..
                    }) => (start, key, serde_json::Value::Array(items)),
                    Some(Frame::Object {
                        start, key, map, ..
                    }) => (start, key, serde_json::Value::Object(map)),
                    // last_mut() above returned Some, so the stack is not empty.
                    None => return Err(self.eof()),
                };
                self.record(start, container_key, false);
                value = closed;
            }
        }
    }

    /// [`Parser::document`] without building the value (see
    /// [`accepts_unflagged`]): the same tokens, the same nesting bound, the
    /// same duplicate-name rule (J3), the same commas. A refusal or a
    /// flagged member name is an `Err` (its detail is not used: the caller
    /// reads such a document again with [`Parser::document`]).
    fn scan_document(&mut self, flag: &mut dyn FnMut(&str) -> bool) -> PResult<()> {
        // Open containers: `None` for an array, the member names so far for
        // an object. Emptied name sets are kept for reuse.
        type Names<'n> = ahash::AHashSet<std::borrow::Cow<'n, str>>;
        let mut stack: Vec<Option<Names<'a>>> = Vec::new();
        let mut spare: Vec<Names<'a>> = Vec::new();
        'values: loop {
            match self.peek() {
                None => return Err(self.eof()),
                Some(open @ (b'{' | b'[')) => {
                    if stack.len() >= MAX_DEPTH {
                        return Err(self.eof());
                    }
                    self.pos += 1;
                    self.skip_ws();
                    if open == b'{' {
                        if self.peek() == Some(b'}') {
                            self.pos += 1;
                        } else {
                            let mut names = spare.pop().unwrap_or_default();
                            self.scan_member_name(&mut names, flag)?;
                            stack.push(Some(names));
                            continue 'values;
                        }
                    } else if self.peek() == Some(b']') {
                        self.pos += 1;
                    } else {
                        stack.push(None);
                        continue 'values;
                    }
                }
                Some(b'"') => {
                    self.string_cow()?;
                }
                Some(b't') => {
                    self.literal("true", serde_json::Value::Null)?;
                }
                Some(b'f') => {
                    self.literal("false", serde_json::Value::Null)?;
                }
                Some(b'n') => {
                    self.literal("null", serde_json::Value::Null)?;
                }
                Some(_) => {
                    self.number()?;
                }
            }
            // The value is read: continue or close its containers.
            loop {
                let Some(frame) = stack.last_mut() else {
                    return Ok(());
                };
                self.skip_ws();
                let close = match frame {
                    None => b']',
                    Some(_) => b'}',
                };
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        self.skip_ws();
                        match frame {
                            None => {
                                if self.peek() == Some(b']') {
                                    return Err(self.eof());
                                }
                            }
                            Some(names) => {
                                self.scan_member_name(names, flag)?;
                            }
                        }
                        continue 'values;
                    }
                    Some(b) if b == close => self.pos += 1,
                    _ => return Err(self.eof()),
                }
                if let Some(Some(mut names)) = stack.pop() {
                    names.clear();
                    spare.push(names);
                }
            }
        }
    }

    /// [`Parser::member_name`] for [`Parser::scan_document`]: the name must
    /// be new in `names` (J3) and not flagged by `flag`.
    fn scan_member_name(
        &mut self,
        names: &mut ahash::AHashSet<std::borrow::Cow<'a, str>>,
        flag: &mut dyn FnMut(&str) -> bool,
    ) -> PResult<()> {
        if self.peek() != Some(b'"') {
            return Err(self.eof());
        }
        let name = self.string_cow()?;
        if flag(&name) || !names.insert(name) {
            return Err(self.eof());
        }
        self.skip_ws();
        if self.peek() != Some(b':') {
            return Err(self.eof());
        }
        self.pos += 1;
        self.skip_ws();
        Ok(())
    }

    /// Moves past the value at `self.pos` without reading it, for a
    /// document the reader accepted before ([`spans_at`]): a container to
    /// its matching bracket (brackets inside strings are not counted), a
    /// string to its closing quote, a literal or number to the byte that
    /// ends it. On other bytes it stops at the end of the input at the
    /// latest (it never reads past it).
    fn skip_accepted_value(&mut self) {
        match self.peek() {
            Some(b'"') => self.skip_accepted_string(),
            Some(b'{' | b'[') => {
                let mut depth = 0usize;
                while let Some(b) = self.peek() {
                    match b {
                        b'"' => {
                            self.skip_accepted_string();
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                self.pos += 1;
                                return;
                            }
                        }
                        _ => {}
                    }
                    self.pos += 1;
                }
            }
            _ => {
                while let Some(b) = self.peek() {
                    if matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                        return;
                    }
                    self.pos += 1;
                }
            }
        }
    }

    /// Moves past the string whose opening quote is at `self.pos` (an
    /// escaped quote does not close it), to the end of the input at the
    /// latest.
    fn skip_accepted_string(&mut self) {
        self.pos += 1;
        loop {
            self.pos += crate::json::plain_run(self.src.get(self.pos..).unwrap_or_default());
            let Some(b) = self.peek() else {
                return;
            };
            self.pos += 1;
            if b == b'"' {
                return;
            }
            if b == b'\\' {
                self.pos = (self.pos + 1).min(self.src.len());
            }
        }
    }

    /// Records the span of the value that started at `start` and ends at
    /// `self.pos`, under `self.ptr`.
    fn record(&mut self, start: usize, key: Option<Range<usize>>, integer_literal: bool) {
        if !self.record_spans
            || self
                .keep
                .as_ref()
                .is_some_and(|keep| !keep.contains(self.ptr.as_str()))
        {
            return;
        }
        self.spans.insert(
            self.ptr.clone(),
            SpanEntry {
                value: start..self.pos,
                key,
                integer_literal,
            },
        );
    }

    /// Reads a member name at `self.pos` (whitespace skipped), checks it is
    /// unique in its object (J3), reads the `:` and the whitespace after it,
    /// and appends the name to `self.ptr`. `comma` is the offset of the comma
    /// before this member, for the trailing-comma span.
    /// `members`: the members of this object read so far (`None` for the
    /// first one), used for the duplicate check when spans are not recorded.
    fn member_name(
        &mut self,
        comma: Option<usize>,
        members: Option<&serde_json::Map<String, serde_json::Value>>,
    ) -> PResult<(String, Range<usize>)> {
        let base_len = self.ptr.len();
        match self.peek() {
            None => return Err(self.eof_expecting("object name: expected string")),
            Some(b'"') => {}
            Some(b) => {
                let at = self.pos;
                return Err(match comma {
                    Some(c) if b == b'}' => {
                        let near = self.excerpt(c, at);
                        self.err(
                            format!(
                                "trailing comma before '}}' at offset {at}: {near}: remove the comma after the last member (the reference reads it as object name: expected string at offset {at})"
                            ),
                            c..c + 1,
                        )
                    }
                    _ => self.err(
                        format!("object name: expected string at offset {at}"),
                        at..at + self.char_len(at),
                    ),
                });
            }
        }
        let key_start = self.pos;
        // The reference names where a bad string is: `object name: …`.
        let name = self.string().map_err(|mut e| {
            e.detail.insert_str(0, "object name: ");
            e
        })?;
        let key_span = key_start..self.pos;
        if self.track_ptr {
            self.ptr.push('/');
            crate::json::pointer::push_escaped(&mut self.ptr, &name);
        }
        // Every earlier member of this object is already recorded under its
        // pointer, and escaping is injective, so this is J3's check.
        let duplicate = if self.record_spans {
            self.spans.contains_key(&self.ptr)
        } else {
            // A short object is searched directly (cheaper than hashing).
            members.is_some_and(|m| crate::json::member(m, &name).is_some())
        };
        if duplicate {
            self.ptr.truncate(base_len);
            return Err(self.err(format!("duplicate object name {name:?}"), key_span));
        }
        self.skip_ws();
        match self.peek() {
            None => return Err(self.eof_expecting("':'")),
            Some(b':') => self.pos += 1,
            Some(_) => {
                let at = self.pos;
                self.ptr.truncate(base_len);
                return Err(self.err(
                    format!("expected ':' at offset {at}"),
                    at..at + self.char_len(at),
                ));
            }
        }
        self.skip_ws();
        Ok((name, key_span))
    }

    fn literal(&mut self, word: &str, v: serde_json::Value) -> PResult<serde_json::Value> {
        let start = self.pos;
        if self
            .src
            .get(start..)
            .is_some_and(|t| t.starts_with(word.as_bytes()))
        {
            self.pos += word.len();
            return Ok(v);
        }
        let mut end = start;
        while self.src.get(end).is_some_and(u8::is_ascii_alphabetic) {
            end += 1;
        }
        Err(self.err(format!("invalid literal at offset {start}"), start..end))
    }

    /// Reads 4 hex digits after `\u` at `esc` (the backslash). Returns the
    /// code unit.
    fn hex4(&mut self, esc: usize) -> PResult<u16> {
        let mut v: u16 = 0;
        for i in 0..4 {
            let at = esc + 2 + i;
            match self.src.get(at) {
                Some(&b) if b.is_ascii_hexdigit() => {
                    // is_ascii_hexdigit guarantees to_digit succeeds.
                    let d = (b as char).to_digit(16).unwrap_or(0) as u16;
                    v = v * 16 + d;
                }
                None | Some(b'"') => {
                    return Err(
                        self.err(format!("truncated Unicode escape at offset {esc}"), esc..at)
                    );
                }
                Some(_) => {
                    let end = at + self.char_len(at);
                    let text = String::from_utf8_lossy(self.src.get(esc..end).unwrap_or_default())
                        .into_owned();
                    return Err(self.err(
                        format!("invalid Unicode escape {text} at offset {esc}"),
                        esc..end,
                    ));
                }
            }
        }
        self.pos = esc + 6;
        Ok(v)
    }

    /// Reads a string token at `self.pos` (on the opening quote); returns the
    /// unescaped text.
    fn string(&mut self) -> PResult<String> {
        self.string_cow().map(std::borrow::Cow::into_owned)
    }

    /// [`Parser::string`], borrowing the text when it has no escape.
    fn string_cow(&mut self) -> PResult<std::borrow::Cow<'a, str>> {
        let start = self.pos;
        self.pos += 1;
        let mut out = String::new();
        let mut run = self.pos; // start of the pending raw run
        loop {
            // Skip the plain bytes of the run at once.
            self.pos += crate::json::plain_run(self.src.get(self.pos..).unwrap_or_default());
            let Some(b) = self.peek() else {
                let n = self.src.len();
                return Err(self.err(
                    format!("unterminated string starting at offset {start}"),
                    start..n,
                ));
            };
            match b {
                b'"' => {
                    let text = self.text(run, self.pos);
                    self.pos += 1;
                    if out.is_empty() {
                        return Ok(text);
                    }
                    out.push_str(&text);
                    return Ok(std::borrow::Cow::Owned(out));
                }
                b'\\' => {
                    out.push_str(&self.text(run, self.pos));
                    self.escape(&mut out)?;
                    run = self.pos;
                }
                0x00..=0x1F => {
                    let at = self.pos;
                    return Err(self.err(
                        format!("unescaped control character U+{b:04X} in string at offset {at}"),
                        at..at + 1,
                    ));
                }
                _ => self.pos += 1,
            }
        }
    }

    /// The source text in `from..to` (valid UTF-8 between ASCII delimiters;
    /// the whole input was checked to be UTF-8 before parsing, so the slice
    /// is on character boundaries).
    fn text(&self, from: usize, to: usize) -> std::borrow::Cow<'a, str> {
        match self.text.get(from..to) {
            Some(t) => std::borrow::Cow::Borrowed(t),
            // Not on character boundaries (error text only): as before.
            None => String::from_utf8_lossy(self.src.get(from..to).unwrap_or_default()),
        }
    }

    /// Reads one escape at `self.pos` (on the backslash) into `out`.
    fn escape(&mut self, out: &mut String) -> PResult<()> {
        let esc = self.pos;
        let Some(c) = self.src.get(esc + 1).copied() else {
            let n = self.src.len();
            return Err(self.err(format!("unterminated escape at offset {esc}"), esc..n));
        };
        let short = match c {
            b'"' => Some('"'),
            b'\\' => Some('\\'),
            b'/' => Some('/'),
            b'b' => Some('\u{8}'),
            b'f' => Some('\u{c}'),
            b'n' => Some('\n'),
            b'r' => Some('\r'),
            b't' => Some('\t'),
            _ => None,
        };
        if let Some(ch) = short {
            out.push(ch);
            self.pos = esc + 2;
            return Ok(());
        }
        if c != b'u' {
            let end = esc + 1 + self.char_len(esc + 1);
            let text =
                String::from_utf8_lossy(self.src.get(esc..end).unwrap_or_default()).into_owned();
            return Err(self.err(format!("invalid escape {text} at offset {esc}"), esc..end));
        }
        let unit = self.hex4(esc)?;
        match unit {
            0xD800..=0xDBFF => {
                let second = self.pos;
                if self.src.get(second) != Some(&b'\\') || self.src.get(second + 1) != Some(&b'u') {
                    return Err(
                        self.err(format!("unpaired high surrogate U+{unit:04X}"), esc..second)
                    );
                }
                let low = self.hex4(second)?;
                if !(0xDC00..=0xDFFF).contains(&low) {
                    return Err(self.err(
                        format!(
                            "high surrogate U+{unit:04X} followed by non-low-surrogate U+{low:04X}"
                        ),
                        esc..self.pos,
                    ));
                }
                let cp = 0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
                // cp is in 0x10000..=0x10FFFF, always a valid scalar value.
                out.push(char::from_u32(cp).unwrap_or(char::REPLACEMENT_CHARACTER));
            }
            0xDC00..=0xDFFF => {
                return Err(self.err(
                    format!("unpaired low surrogate U+{unit:04X}"),
                    esc..self.pos,
                ));
            }
            _ => {
                // Not a surrogate, so always a valid scalar value.
                out.push(char::from_u32(u32::from(unit)).unwrap_or(char::REPLACEMENT_CHARACTER));
            }
        }
        Ok(())
    }

    /// Reads a number at `self.pos`. Returns the value and whether the literal
    /// was a plain integer.
    fn number(&mut self) -> PResult<(serde_json::Number, bool)> {
        let start = self.pos;
        let src = self.src;
        // End of the maximal run of number-ish bytes, for error spans.
        let run_end = {
            let mut e = start;
            while src
                .get(e)
                .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
            {
                e += 1;
            }
            e.max(start + self.char_len(start))
        };
        let digits = |mut i: usize| {
            while src.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            i
        };
        let mut i = start;
        if src.get(i) == Some(&b'-') {
            i += 1;
        }
        match src.get(i) {
            Some(b'0') => {
                i += 1;
                if src.get(i).is_some_and(u8::is_ascii_digit) {
                    let lit = self.text(start, run_end).into_owned();
                    return Err(self.err(
                        format!("leading zero in number {lit:?} at offset {start}"),
                        start..run_end,
                    ));
                }
            }
            Some(b'1'..=b'9') => i = digits(i),
            None => {
                return Err(self.err(
                    format!("truncated number at offset {start}"),
                    start..run_end,
                ))
            }
            Some(_) => {
                return Err(self.err(format!("invalid number at offset {start}"), start..run_end))
            }
        }
        let mut integer = true;
        if src.get(i) == Some(&b'.') {
            integer = false;
            let f = digits(i + 1);
            if f == i + 1 {
                return Err(self.err(
                    format!("fraction has no digits in number at offset {start}"),
                    start..run_end,
                ));
            }
            i = f;
        }
        if let Some(b'e' | b'E') = src.get(i) {
            integer = false;
            i += 1;
            if let Some(b'+' | b'-') = src.get(i) {
                i += 1;
            }
            let e = digits(i);
            if e == i {
                return Err(self.err(
                    format!("exponent has no digits in number at offset {start}"),
                    start..run_end,
                ));
            }
            i = e;
        }
        self.pos = i;
        // ASCII only (checked above), so always on character boundaries.
        let text = self.text;
        let lit = text.get(start..i).unwrap_or("");
        let negative = lit.starts_with('-');
        if integer {
            let n = if negative {
                lit.parse::<i64>().ok().map(serde_json::Number::from)
            } else {
                lit.parse::<u64>().ok().map(serde_json::Number::from)
            };
            if let Some(n) = n {
                if negative && n.as_i64() == Some(0) {
                    return Err(self.err(format!("negative zero {lit:?} is forbidden"), start..i));
                }
                return Ok((n, true));
            }
        }
        // The grammar was checked above, so Rust's float parser accepts it.
        let f: f64 = lit.parse().unwrap_or(f64::NAN);
        if !f.is_finite() {
            return Err(self.err(
                format!("number {lit:?} is not finite IEEE-754 binary64"),
                start..i,
            ));
        }
        if negative && f == 0.0 {
            return Err(self.err(format!("negative zero {lit:?} is forbidden"), start..i));
        }
        match serde_json::Number::from_f64(f) {
            Some(n) => Ok((n, integer)),
            None => Err(self.err(
                format!("number {lit:?} is not finite IEEE-754 binary64"),
                start..i,
            )),
        }
    }
}

#[cfg(test)]
mod tests;

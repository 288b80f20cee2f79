//! The editor's open documents (full text, by URI) and `file:` URIs ↔
//! paths.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use lsp_types::Uri;
use percent_encoding::{percent_decode_str, AsciiSet, NON_ALPHANUMERIC};

/// One open document.
#[derive(Clone, Debug)]
pub struct Document {
    /// The URI as the client spelled it (diagnostics are published on it).
    pub uri: Uri,
    /// Its path, for a `file:` URI.
    pub path: Option<PathBuf>,
    /// The whole text (full synchronisation), each lone surrogate the
    /// client sent as U+FFFD ([`super::surrogates`]).
    pub text: String,
    /// The lone surrogates of the client's text (usually none): the
    /// buffer's bytes as verified hold them ([`Document::bytes`]).
    pub lone: Vec<super::surrogates::Lone>,
    /// The last text of this document that was strict I-JSON (its
    /// current text when it is), for hover and navigation while the
    /// author is half-way through an edit.
    pub last_good: Option<String>,
}

impl Document {
    fn new(uri: Uri, text: String, lone: Vec<super::surrogates::Lone>) -> Self {
        let path = file_path(&uri);
        let mut d = Document {
            uri,
            path,
            text,
            lone,
            last_good: None,
        };
        d.remember();
        d
    }

    /// The buffer's bytes as the client holds them: its text, with each
    /// lone surrogate in its WTF-8 form (so never UTF-8 when it has one).
    pub fn bytes(&self) -> Vec<u8> {
        if self.lone.is_empty() {
            self.text.clone().into_bytes()
        } else {
            super::surrogates::to_wtf8(&self.text, &self.lone)
        }
    }

    /// Keeps the text as the last good one when it is strict I-JSON (a
    /// text with a lone surrogate never is).
    fn remember(&mut self) {
        if self.lone.is_empty() && crate::json::strict::parse(self.text.as_bytes()).is_ok() {
            self.last_good = Some(self.text.clone());
        }
    }

    /// A strict I-JSON text to read byte `offset` of the current text in:
    /// the current text itself, or else the last good text with the offset
    /// carried over ([`Shift`]); `None` when the offset lies in the part
    /// that changed since (or no text of the document was ever good).
    pub fn good_view(&self, offset: usize) -> Option<(&str, usize, Shift)> {
        let good = self.last_good.as_deref()?;
        let shift = Shift::between(good, &self.text);
        Some((good, shift.to_old(offset)?, shift))
    }
}

/// How a last good text and the current text differ: one changed region
/// between an equal prefix and an equal suffix (byte lengths).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shift {
    prefix: usize,
    suffix: usize,
    old_len: usize,
    new_len: usize,
}

impl Shift {
    /// The shift from `old` to `new`: the longest equal suffix, then the
    /// longest equal prefix in what is left (so that an insertion is
    /// placed as late as it can be), both on character boundaries.
    pub fn between(old: &str, new: &str) -> Shift {
        let (o, n) = (old.as_bytes(), new.as_bytes());
        let shorter = o.len().min(n.len());
        let mut suffix = o
            .iter()
            .rev()
            .zip(n.iter().rev())
            .take_while(|(a, b)| a == b)
            .count();
        while !old.is_char_boundary(o.len() - suffix) || !new.is_char_boundary(n.len() - suffix) {
            suffix -= 1;
        }
        let mut prefix = o
            .iter()
            .zip(n)
            .take(shorter - suffix)
            .take_while(|(a, b)| a == b)
            .count();
        while !old.is_char_boundary(prefix) || !new.is_char_boundary(prefix) {
            prefix -= 1;
        }
        Shift {
            prefix,
            suffix,
            old_len: o.len(),
            new_len: n.len(),
        }
    }

    /// A byte offset of the new text in the old one; `None` inside the
    /// changed region.
    pub fn to_old(&self, offset: usize) -> Option<usize> {
        if offset < self.prefix || (offset == self.prefix && self.prefix == self.new_len) {
            Some(offset)
        } else if offset >= self.new_len - self.suffix && offset <= self.new_len {
            Some(offset + self.old_len - self.new_len)
        } else {
            None
        }
    }

    /// A byte offset of the old text in the new one; an offset inside the
    /// changed region goes to its start.
    pub fn to_new(&self, offset: usize) -> usize {
        if offset <= self.prefix {
            offset
        } else if offset >= self.old_len - self.suffix {
            (offset + self.new_len - self.old_len).min(self.new_len)
        } else {
            self.prefix
        }
    }
}

/// Open documents by URI text.
#[derive(Debug, Default)]
pub struct Documents {
    docs: BTreeMap<String, Document>,
}

impl Documents {
    /// Opens (or reopens) `uri` with `text` and its lone surrogates.
    pub fn open(&mut self, uri: Uri, text: String, lone: Vec<super::surrogates::Lone>) {
        self.docs
            .insert(uri.as_str().to_owned(), Document::new(uri, text, lone));
    }

    /// Replaces the text of an open document (and its lone surrogates);
    /// `false` when it is not open.
    pub fn change(&mut self, uri: &Uri, text: String, lone: Vec<super::surrogates::Lone>) -> bool {
        match self.docs.get_mut(uri.as_str()) {
            Some(d) => {
                d.text = text;
                d.lone = lone;
                d.remember();
                true
            }
            None => false,
        }
    }

    /// Closes `uri`, giving back the document.
    pub fn close(&mut self, uri: &Uri) -> Option<Document> {
        self.docs.remove(uri.as_str())
    }

    /// The open document `uri`.
    pub fn get(&self, uri: &Uri) -> Option<&Document> {
        self.docs.get(uri.as_str())
    }

    /// The open document at `path`.
    pub fn by_path(&self, path: &Path) -> Option<&Document> {
        self.docs.values().find(|d| d.path.as_deref() == Some(path))
    }

    /// Every open document.
    pub fn iter(&self) -> impl Iterator<Item = &Document> {
        self.docs.values()
    }
}

/// The path of a `file:` URI (`file:///a/b%20c` → `/a/b c`; an empty or
/// `localhost` authority only); `None` for another scheme or host.
pub fn file_path(uri: &Uri) -> Option<PathBuf> {
    let s = uri.as_str();
    let rest = s
        .get(..7)
        .filter(|p| p.eq_ignore_ascii_case("file://"))
        .and_then(|_| s.get(7..))?;
    let path = rest
        .strip_prefix("localhost")
        .unwrap_or(rest)
        .split(['?', '#'])
        .next()?;
    if !path.starts_with('/') {
        return None;
    }
    // An encoded `/` (`%2F`) or NUL (`%00`) decodes to a byte no file name
    // holds: such a URI names no file (read as a path, `a%2Fb` would be
    // the file `b` in the folder `a`).
    let lower = path.to_ascii_lowercase();
    if lower.contains("%2f") || lower.contains("%00") {
        return None;
    }
    let bytes: Vec<u8> = percent_decode_str(path).collect();
    Some(PathBuf::from(OsString::from_vec(bytes)))
}

/// Bytes a path keeps as they are in a URI: unreserved characters and `/`.
const PATH_KEEP: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'/')
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The `file:` URI of an absolute path (each byte outside the unreserved
/// set percent-encoded); `None` when the URI does not parse.
pub fn file_uri(path: &Path) -> Option<Uri> {
    let encoded: String =
        percent_encoding::percent_encode(path.as_os_str().as_bytes(), PATH_KEEP).collect();
    Uri::from_str(&format!("file://{encoded}")).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_carry_over_the_changed_region_only() {
        let old = r#"{"a": "é", "b": 1}"#;
        let new = r#"{"a": "é", "x": , "b": 1}"#;
        let s = Shift::between(old, new);
        let b_new = new.find("\"b\"").unwrap();
        let b_old = old.find("\"b\"").unwrap();
        assert_eq!(s.to_old(b_new), Some(b_old));
        assert_eq!(s.to_new(b_old), b_new);
        assert_eq!(s.to_old(2), Some(2));
        assert_eq!(s.to_old(new.len()), Some(old.len()));
        // Near miss: inside the inserted text there is no old offset.
        assert_eq!(s.to_old(new.find('x').unwrap()), None);
        // An unclosed tail: the prefix carries over, the rest does not.
        let cut = &old[..12];
        let s = Shift::between(old, cut);
        assert_eq!(s.to_old(3), Some(3));
        assert_eq!(s.to_new(old.len() - 1), cut.len());
    }

    #[test]
    fn file_uris_and_paths_round_trip() {
        let p = Path::new("/tmp/a b/é#1.json");
        let uri = file_uri(p).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%A9%231.json");
        assert_eq!(file_path(&uri).as_deref(), Some(p));
        let local = Uri::from_str("file://localhost/x/y.json").unwrap();
        assert_eq!(file_path(&local).as_deref(), Some(Path::new("/x/y.json")));
        // Near misses: another scheme, another host.
        assert_eq!(
            file_path(&Uri::from_str("untitled:Untitled-1").unwrap()),
            None
        );
        assert_eq!(file_path(&Uri::from_str("file://host/x").unwrap()), None);
        // An encoded slash or NUL names no file; near miss: an encoded space does.
        assert_eq!(
            file_path(&Uri::from_str("file:///a%2Fdefinition.json").unwrap()),
            None
        );
        assert_eq!(
            file_path(&Uri::from_str("file:///a%2fb/c.json").unwrap()),
            None
        );
        assert_eq!(
            file_path(&Uri::from_str("file:///a%00.json").unwrap()),
            None
        );
        assert_eq!(
            file_path(&Uri::from_str("file:///a%20b/c.json").unwrap()).as_deref(),
            Some(Path::new("/a b/c.json"))
        );
    }
}

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
    /// The whole text (full synchronisation).
    pub text: String,
}

/// Open documents by URI text.
#[derive(Debug, Default)]
pub struct Documents {
    docs: BTreeMap<String, Document>,
}

impl Documents {
    /// Opens (or reopens) `uri` with `text`.
    pub fn open(&mut self, uri: Uri, text: String) {
        let path = file_path(&uri);
        self.docs
            .insert(uri.as_str().to_owned(), Document { uri, path, text });
    }

    /// Replaces the text of an open document; `false` when it is not open.
    pub fn change(&mut self, uri: &Uri, text: String) -> bool {
        match self.docs.get_mut(uri.as_str()) {
            Some(d) => {
                d.text = text;
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
    }
}

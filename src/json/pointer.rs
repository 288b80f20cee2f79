//! RFC 6901 JSON Pointers.
//!
//! A [`JsonPointer`] is kept in its escaped text form (`""` is the whole
//! document, `/a~1b/0` is member `a/b`, element 0). Tokens are escaped on
//! `push` (`~` → `~0`, `/` → `~1`) and unescaped by [`JsonPointer::tokens`].

use std::fmt;

/// An RFC 6901 JSON Pointer in escaped text form.
///
/// Ordering is byte-wise on the escaped text, which is the order diagnostics
/// are sorted in.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct JsonPointer(String);

impl JsonPointer {
    /// The pointer to the whole document (`""`).
    pub fn root() -> Self {
        JsonPointer(String::new())
    }

    /// Parses escaped pointer text. Returns `None` unless the text is empty or
    /// starts with `/` and every `~` is followed by `0` or `1`.
    pub fn parse(text: &str) -> Option<Self> {
        if !text.is_empty() && !text.starts_with('/') {
            return None;
        }
        let bytes = text.as_bytes();
        for (i, b) in bytes.iter().enumerate() {
            if *b == b'~' && !matches!(bytes.get(i + 1), Some(b'0') | Some(b'1')) {
                return None;
            }
        }
        Some(JsonPointer(text.to_owned()))
    }

    /// Appends one unescaped reference token.
    pub fn push(&mut self, token: &str) {
        self.0.push('/');
        self.0.push_str(&escape(token));
    }

    /// Appends an array index.
    pub fn push_index(&mut self, index: usize) {
        self.0.push('/');
        self.0.push_str(&index.to_string());
    }

    /// A new pointer with one more unescaped token.
    pub fn child(&self, token: &str) -> Self {
        let mut p = self.clone();
        p.push(token);
        p
    }

    /// A new pointer with one more array index.
    pub fn index(&self, index: usize) -> Self {
        let mut p = self.clone();
        p.push_index(index);
        p
    }

    /// The parent pointer, or `None` for the root.
    pub fn parent(&self) -> Option<Self> {
        let cut = self.0.rfind('/')?;
        Some(JsonPointer(self.0[..cut].to_owned()))
    }

    /// The unescaped reference tokens, in order.
    pub fn tokens(&self) -> Vec<String> {
        if self.0.is_empty() {
            return Vec::new();
        }
        self.0[1..].split('/').map(unescape).collect()
    }

    /// The escaped text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// True for the whole-document pointer.
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }

    /// Resolves the pointer in a `serde_json::Value`.
    pub fn resolve<'a>(&self, value: &'a serde_json::Value) -> Option<&'a serde_json::Value> {
        value.pointer(&self.0)
    }
}

impl fmt::Display for JsonPointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for JsonPointer {
    /// Takes already-escaped pointer text as it is (no validation).
    fn from(text: &str) -> Self {
        JsonPointer(text.to_owned())
    }
}

/// Escapes one reference token (`~` → `~0`, `/` → `~1`).
pub fn escape(token: &str) -> String {
    if !token.contains(['~', '/']) {
        return token.to_owned();
    }
    token.replace('~', "~0").replace('/', "~1")
}

/// Unescapes one reference token (`~1` → `/`, then `~0` → `~`).
pub fn unescape(token: &str) -> String {
    if !token.contains('~') {
        return token.to_owned();
    }
    token.replace("~1", "/").replace("~0", "~")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_round_trips() {
        for token in ["a", "m/z", "a~b", "~1", "e f", "", "~01/"] {
            let p = JsonPointer::root().child(token);
            assert_eq!(p.tokens(), vec![token.to_owned()]);
        }
        assert_eq!(
            JsonPointer::root().child("a/b").child("c~").as_str(),
            "/a~1b/c~0"
        );
    }

    #[test]
    fn parent_and_parse() {
        let p = JsonPointer::parse("/a/0/b").unwrap();
        assert_eq!(p.parent().unwrap().as_str(), "/a/0");
        assert_eq!(JsonPointer::root().parent(), None);
        assert!(JsonPointer::parse("a").is_none());
        assert!(JsonPointer::parse("/a~2").is_none());
        assert!(JsonPointer::parse("/a~").is_none());
    }

    #[test]
    fn resolves_in_values() {
        let v = serde_json::json!({"a/b": [1, {"c": true}]});
        let p = JsonPointer::root().child("a/b").index(1).child("c");
        assert_eq!(p.resolve(&v), Some(&serde_json::json!(true)));
    }
}

//! RFC 6901 JSON Pointers.
//!
//! A [`JsonPointer`] is kept in its escaped text form (`""` is the whole
//! document, `/a~1b/0` is member `a/b`, element 0). Tokens are escaped on
//! `push` (`~` → `~0`, `/` → `~1`) and unescaped by [`JsonPointer::tokens`].

use std::fmt;

/// An RFC 6901 JSON Pointer in escaped text form.
///
/// Ordering is token by token, the order diagnostics are sorted in: two
/// tokens that are both array indices (ASCII digits) compare as numbers
/// (`/files/2` before `/files/10`, issue 26 item 4), any other two
/// byte-wise on their escaped text; a pointer sorts before the pointers
/// below it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct JsonPointer(String);

impl Ord for JsonPointer {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let index = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        let (mut a, mut b) = (self.0.split('/'), other.0.split('/'));
        loop {
            match (a.next(), b.next()) {
                (None, None) => return std::cmp::Ordering::Equal,
                (None, Some(_)) => return std::cmp::Ordering::Less,
                (Some(_), None) => return std::cmp::Ordering::Greater,
                (Some(x), Some(y)) => {
                    let o = if index(x) && index(y) {
                        // Without leading zeros, the longer is larger.
                        let (x, y) = (x.trim_start_matches('0'), y.trim_start_matches('0'));
                        x.len().cmp(&y.len()).then_with(|| x.cmp(y))
                    } else {
                        x.cmp(y)
                    };
                    // `/01` and `/1` are distinct members: order them by text.
                    let o = o.then_with(|| x.cmp(y));
                    if o != std::cmp::Ordering::Equal {
                        return o;
                    }
                }
            }
        }
    }
}

impl PartialOrd for JsonPointer {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

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
        self.0.reserve(1 + token.len());
        self.0.push('/');
        push_escaped(&mut self.0, token);
    }

    /// Appends an array index.
    pub fn push_index(&mut self, index: usize) {
        self.0.push('/');
        push_decimal(&mut self.0, index);
    }

    /// A new pointer with one more unescaped token (one allocation, no
    /// copy of the token when it needs no escape).
    pub fn child(&self, token: &str) -> Self {
        let mut text = String::with_capacity(self.0.len() + 1 + token.len());
        text.push_str(&self.0);
        let mut p = JsonPointer(text);
        p.push(token);
        p
    }

    /// A new pointer with one more array index.
    pub fn index(&self, index: usize) -> Self {
        // `usize::MAX` has 20 digits.
        let mut text = String::with_capacity(self.0.len() + 21);
        text.push_str(&self.0);
        let mut p = JsonPointer(text);
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
    let mut out = String::with_capacity(token.len());
    push_escaped(&mut out, token);
    out
}

/// Appends `token` escaped ([`escape`]) to pointer text, without an
/// allocation of its own.
pub fn push_escaped(out: &mut String, token: &str) {
    if memchr::memchr2(b'~', b'/', token.as_bytes()).is_none() {
        out.push_str(token);
        return;
    }
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            _ => out.push(c),
        }
    }
}

/// Appends the decimal digits of `n` (an array index) without the
/// formatting machinery.
pub fn push_decimal(out: &mut String, n: usize) {
    if n >= 10 {
        push_decimal(out, n / 10);
    }
    // `n % 10` is below 10, so the digit is ASCII.
    out.push(char::from(b'0' + (n % 10) as u8));
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

    /// Issue 26 item 4: array indices compare as numbers, everything else
    /// byte-wise; near misses: a member named like a number beside a name,
    /// a leading zero, a parent before its children.
    #[test]
    fn indices_order_numerically() {
        let p = |t: &str| JsonPointer::parse(t).unwrap();
        let mut v = [
            p("/files/10/path"),
            p("/files/2/path"),
            p("/files/1/size"),
            p("/files"),
            p("/files/02"),
            p("/files/x"),
            p(""),
        ];
        v.sort();
        let got: Vec<&str> = v.iter().map(JsonPointer::as_str).collect();
        assert_eq!(
            got,
            [
                "",
                "/files",
                "/files/1/size",
                "/files/02",
                "/files/2/path",
                "/files/10/path",
                "/files/x"
            ]
        );
        assert!(p("/a/b") < p("/a~1b"), "byte-wise for names");
        assert_ne!(p("/01").cmp(&p("/1")), std::cmp::Ordering::Equal);
    }

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

    /// The pointer text built in place is what escaping each token and
    /// writing each index gives (issue 38: no allocation per token).
    #[test]
    fn tokens_and_indices_are_written_as_escaped_text() {
        let tokens = ["a", "m/z", "a~b", "~1", "", "é/😀~", "//", "~~"];
        let mut pushed = JsonPointer::root();
        let mut want = String::new();
        for (i, token) in tokens.iter().enumerate() {
            let index = [0, 9, 10, 1234, usize::MAX][i % 5];
            let built = pushed.child(token).index(index);
            pushed.push(token);
            pushed.push_index(index);
            want.push_str(&format!(
                "/{}/{index}",
                token.replace('~', "~0").replace('/', "~1")
            ));
            assert_eq!(pushed.as_str(), want);
            assert_eq!(built.as_str(), want);
            assert_eq!(escape(token), token.replace('~', "~0").replace('/', "~1"));
        }
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

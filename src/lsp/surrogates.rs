//! Editor text holding a lone surrogate (issue 36 item 13).
//!
//! LSP sends a document's text as a JSON string, which may carry a UTF-16
//! surrogate escape with no pair (`"\ud800"`: legal JSON text, not I-JSON).
//! Such text has no Rust `String` (no UTF-8 form), so `serde_json`
//! refuses the whole message, and the buffer used to be dropped whole
//! (its last text verified, the edit lost). Here a `textDocument/didOpen`
//! or `textDocument/didChange` whose only fault is such a surrogate is
//! read anyway ([`decode_text_sync`]): each lone surrogate is kept in its
//! WTF-8 form (`ED A0 80` for U+D800: three bytes, as U+FFFD's UTF-8 form
//! is), so the buffer is verified from those bytes as a file holding them
//! would be (`verify`'s `invalid-utf8` finding, at the byte where the
//! surrogate is), and every position is the same in the text the rest of
//! the server reads, where each lone surrogate is U+FFFD. The surrogates
//! travel to the server inside the notification's parameters, in the
//! member [`MEMBER`] beside the text; a client's own member of that name is
//! removed ([`strip`]).

use serde::Deserialize;
use serde_json::{json, Value};

/// The member, beside a text in a notification's parameters, that lists
/// its lone surrogates as `[byte offset, UTF-16 code unit]` pairs.
pub const MEMBER: &str = "formPackage/loneSurrogates";

/// U+FFFD REPLACEMENT CHARACTER in UTF-8.
const REPLACEMENT: [u8; 3] = [0xEF, 0xBF, 0xBD];

/// A lone surrogate of a text: where it is (byte offset of its three-byte
/// form) and which code unit it is (`0xD800..=0xDFFF`).
pub type Lone = (usize, u16);

/// A JSON string read as bytes: WTF-8, a lone surrogate escape in its
/// generalized UTF-8 form.
struct Wtf8(Vec<u8>);

impl<'de> Deserialize<'de> for Wtf8 {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Bytes;
        impl serde::de::Visitor<'_> for Bytes {
            type Value = Wtf8;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_bytes<E>(self, v: &[u8]) -> Result<Wtf8, E> {
                Ok(Wtf8(v.to_vec()))
            }
            fn visit_byte_buf<E>(self, v: Vec<u8>) -> Result<Wtf8, E> {
                Ok(Wtf8(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Wtf8, E> {
                Ok(Wtf8(v.as_bytes().to_vec()))
            }
        }
        // `serde_json` reads a string's escapes into bytes here without
        // refusing a lone surrogate.
        d.deserialize_byte_buf(Bytes)
    }
}

/// The parts of a text synchronisation notification this reading keeps
/// (the server reads no other).
#[derive(Deserialize)]
struct RawNotification {
    id: Option<serde::de::IgnoredAny>,
    method: String,
    params: RawParams,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawParams {
    text_document: RawDocument,
    content_changes: Option<Vec<RawChange>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawDocument {
    uri: String,
    language_id: Option<String>,
    version: Option<i32>,
    text: Option<Wtf8>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawChange {
    range: Option<lsp_types::Range>,
    range_length: Option<u32>,
    text: Wtf8,
}

/// The surrogate code unit whose WTF-8 form (`ED A0..BF 80..BF`) starts
/// `bytes`, if one does.
pub fn unit_at(bytes: &[u8]) -> Option<u16> {
    match *bytes.get(..3)? {
        [0xED, b1 @ 0xA0..=0xBF, b2 @ 0x80..=0xBF] => {
            Some(0xD000 | (u16::from(b1 & 0x3F) << 6) | u16::from(b2 & 0x3F))
        }
        _ => None,
    }
}

/// `bytes` (WTF-8) as text: each lone surrogate's three bytes become U+FFFD
/// (three bytes too, so every byte offset is kept), and the surrogates
/// found. `None` when the bytes hold anything else that is not UTF-8.
pub fn from_wtf8(mut bytes: Vec<u8>) -> Option<(String, Vec<Lone>)> {
    let mut lone = Vec::new();
    let mut at = 0;
    loop {
        match std::str::from_utf8(bytes.get(at..)?) {
            Ok(_) => break,
            Err(e) => {
                let i = at + e.valid_up_to();
                let unit = unit_at(bytes.get(i..)?)?;
                lone.push((i, unit));
                bytes.get_mut(i..i + 3)?.copy_from_slice(&REPLACEMENT);
                at = i + 3;
            }
        }
    }
    String::from_utf8(bytes).ok().map(|text| (text, lone))
}

/// The bytes of `text` with each of `lone` back in its WTF-8 form: the
/// buffer as the client holds it, as verification reads it. A surrogate
/// whose offset does not hold U+FFFD in `text` is left out.
pub fn to_wtf8(text: &str, lone: &[Lone]) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for &(at, unit) in lone {
        let form = [
            0xED,
            0x80 | ((unit >> 6) & 0x3F) as u8,
            0x80 | (unit & 0x3F) as u8,
        ];
        match bytes.get_mut(at..at + 3) {
            Some(here) if *here == REPLACEMENT && (0xD800..=0xDFFF).contains(&unit) => {
                here.copy_from_slice(&form);
            }
            _ => {}
        }
    }
    bytes
}

/// The lone surrogates listed beside a text in `holder` (the
/// `textDocument` of a `didOpen`, a content change of a `didChange`), as
/// [`decode_text_sync`] put them there.
pub fn listed(holder: Option<&Value>) -> Vec<Lone> {
    holder
        .and_then(|h| h.get(MEMBER))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|pair| {
            let at = usize::try_from(pair.get(0)?.as_u64()?).ok()?;
            let unit = u16::try_from(pair.get(1)?.as_u64()?).ok()?;
            Some((at, unit))
        })
        .collect()
}

/// Removes [`MEMBER`] from a text synchronisation notification's
/// parameters as a client sent them: only [`decode_text_sync`] lists
/// surrogates.
pub fn strip(message: &mut Value) {
    let Some(params) = message.get_mut("params") else {
        return;
    };
    if let Some(Value::Object(doc)) = params.get_mut("textDocument") {
        doc.remove(MEMBER);
    }
    if let Some(Value::Array(changes)) = params.get_mut("contentChanges") {
        for c in changes {
            if let Value::Object(c) = c {
                c.remove(MEMBER);
            }
        }
    }
}

/// A `textDocument/didOpen` or `textDocument/didChange` that `serde_json`
/// refused only for a lone surrogate in a text, read with each such
/// surrogate as U+FFFD and listed beside its text ([`MEMBER`]). `None`
/// for any other message, or any other fault (it is a parse error then).
pub fn decode_text_sync(body: &[u8]) -> Option<lsp_server::Message> {
    let raw: RawNotification = serde_json::from_slice(body).ok()?;
    if raw.id.is_some() {
        return None;
    }
    let text = |w: Wtf8| -> Option<(Value, Value)> {
        let (text, lone) = from_wtf8(w.0)?;
        let pairs: Vec<Value> = lone.iter().map(|(at, u)| json!([at, u])).collect();
        Some((Value::String(text), Value::Array(pairs)))
    };
    let doc = raw.params.text_document;
    let mut document = serde_json::Map::new();
    document.insert("uri".into(), Value::String(doc.uri));
    if let Some(v) = doc.version {
        document.insert("version".into(), json!(v));
    }
    let params = match raw.method.as_str() {
        "textDocument/didOpen" => {
            let (t, lone) = text(doc.text?)?;
            document.insert("languageId".into(), Value::String(doc.language_id?));
            document.insert("text".into(), t);
            document.insert(MEMBER.into(), lone);
            json!({ "textDocument": document })
        }
        "textDocument/didChange" => {
            let mut changes = Vec::new();
            for c in raw.params.content_changes? {
                let (t, lone) = text(c.text)?;
                let mut change = serde_json::Map::new();
                change.insert("text".into(), t);
                change.insert(MEMBER.into(), lone);
                if let Some(r) = c.range {
                    change.insert("range".into(), serde_json::to_value(r).ok()?);
                }
                if let Some(n) = c.range_length {
                    change.insert("rangeLength".into(), json!(n));
                }
                changes.push(Value::Object(change));
            }
            json!({ "textDocument": document, "contentChanges": changes })
        }
        _ => return None,
    };
    Some(lsp_server::Message::Notification(
        lsp_server::Notification::new(raw.method, params),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_keep_their_offsets_and_come_back() {
        // U+D800 then é, then a lone low surrogate U+DC01 at the end.
        let wtf8 = b"a\xED\xA0\x80\xC3\xA9\xED\xB0\x81".to_vec();
        let (text, lone) = from_wtf8(wtf8.clone()).unwrap();
        assert_eq!(text, "a\u{FFFD}é\u{FFFD}");
        assert_eq!(lone, [(1, 0xD800), (6, 0xDC01)]);
        assert_eq!(to_wtf8(&text, &lone), wtf8);
        // Near misses: plain UTF-8 has none; other invalid bytes are refused;
        // a listed offset that holds no U+FFFD is left as it is.
        assert_eq!(from_wtf8("😀".into()), Some(("😀".into(), vec![])));
        assert_eq!(from_wtf8(b"a\xFFb".to_vec()), None);
        assert_eq!(to_wtf8("abc", &[(0, 0xD800)]), b"abc");
    }

    #[test]
    fn a_text_sync_with_a_lone_surrogate_is_read() {
        let body = br#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///p/a.json","version":2},"contentChanges":[{"text":"{\"a\": \"x\ud800\"}"}]}}"#;
        assert!(serde_json::from_slice::<Value>(body).is_err());
        let Some(lsp_server::Message::Notification(n)) = decode_text_sync(body) else {
            panic!("read");
        };
        let change = &n.params["contentChanges"][0];
        assert_eq!(change["text"], "{\"a\": \"x\u{FFFD}\"}");
        assert_eq!(listed(Some(change)), [(8, 0xD800)]);
        assert_eq!(n.params["textDocument"]["version"], 2);
        // Near misses: a request is not read so, nor is another method.
        let request = br#"{"jsonrpc":"2.0","id":1,"method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a"},"contentChanges":[{"text":"\ud800"}]}}"#;
        assert!(decode_text_sync(request).is_none());
        let other = br#"{"jsonrpc":"2.0","method":"textDocument/didSave","params":{"textDocument":{"uri":"file:///a","text":"\ud800"}}}"#;
        assert!(decode_text_sync(other).is_none());
    }

    #[test]
    fn a_clients_own_list_is_removed() {
        let mut m = json!({"params": {"textDocument": {"uri": "u", MEMBER: [[0, 55296]]},
            "contentChanges": [{"text": "\u{FFFD}", MEMBER: [[0, 55296]]}]}});
        strip(&mut m);
        assert!(listed(Some(&m["params"]["textDocument"])).is_empty());
        assert!(listed(Some(&m["params"]["contentChanges"][0])).is_empty());
        assert_eq!(m["params"]["contentChanges"][0]["text"], "\u{FFFD}");
    }
}

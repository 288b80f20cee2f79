//! JSON reading: the strict I-JSON reader with its span map, JSON Pointers,
//! and positions (byte offsets to `line:column`, the one unit every output
//! and every model that locates a finding uses).

pub mod pointer;
pub mod position;
pub mod strict;

/// The length of the leading run of `bytes` that a string holds as it is:
/// no `"`, no `\`, no control character (the reader's string scan, the
/// RFC 8785 writer's and the accepted-document skip). `memchr` finds the first quote
/// or backslash (SIMD), and the run up to it is searched for a control
/// character only when its least byte is one (a minimum the compiler
/// takes 16 or 32 bytes at a time); issue 38: a byte-by-byte search was
/// most of the reader's time.
pub fn plain_run(bytes: &[u8]) -> usize {
    let end = memchr::memchr2(b'"', b'\\', bytes).unwrap_or(bytes.len());
    let run = bytes.get(..end).unwrap_or_default();
    if run.iter().copied().min().is_some_and(|least| least < 0x20) {
        return run.iter().position(|&b| b < 0x20).unwrap_or(end);
    }
    end
}

/// The member `key` of the JSON object `map`, as `map.get(key)` gives it:
/// an object of at most [`SCAN_MEMBERS`] members (nearly every object of a
/// real package: all but one of the corpus's 26,877) is searched directly, which is
/// cheaper than hashing the key (serde_json's ordered map hashes with
/// SipHash: ≈ 16 ns a lookup, against 2–10 ns for a search of 2–16
/// members); a larger one through its index. For lookups made at every
/// node of a walk (proofs, lints, the ahead-of-time validators).
pub fn member<'a>(
    map: &'a serde_json::Map<String, serde_json::Value>,
    key: &str,
) -> Option<&'a serde_json::Value> {
    if map.len() <= SCAN_MEMBERS {
        map.iter().find_map(|(k, v)| (k == key).then_some(v))
    } else {
        map.get(key)
    }
}

/// The most members [`member`] searches directly (issue 38: measured on
/// serde_json's map with the corpus's keyword names, a direct search stays
/// cheaper than one SipHash of the key up to 32 members).
pub const SCAN_MEMBERS: usize = 16;

/// [`member`] as a method of a JSON object or value, for call sites that
/// would write `.get("name")` / `.contains_key("name")` on one (issue 38:
/// the lookups made for every schema node, fixture and index entry).
pub trait Members {
    /// The member `key`, as `.get(key)` gives it (none on a non-object).
    fn member(&self, key: &str) -> Option<&serde_json::Value>;

    /// True when there is a member `key` (`.contains_key(key)`).
    fn has(&self, key: &str) -> bool {
        self.member(key).is_some()
    }
}

impl Members for serde_json::Map<String, serde_json::Value> {
    fn member(&self, key: &str) -> Option<&serde_json::Value> {
        member(self, key)
    }
}

impl Members for serde_json::Value {
    fn member(&self, key: &str) -> Option<&serde_json::Value> {
        self.as_object().and_then(|map| member(map, key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Map, Value};

    /// `member` and `Members` answer as serde_json's own lookups on
    /// both sides of `SCAN_MEMBERS`: every member found, and near misses
    /// (a prefix, the same length, another case, the empty name) not.
    #[test]
    fn lookups_answer_as_the_map_does() {
        for len in 0..=(2 * SCAN_MEMBERS + 1) {
            let mut map = Map::new();
            for i in 0..len {
                map.insert(format!("k{i:02}"), json!(i));
            }
            let value = Value::Object(map.clone());
            let mut names: Vec<String> = map.keys().cloned().collect();
            names.extend(["k", "k0", "K00", "k99", "", "k000"].map(String::from));
            for name in &names {
                let want = map.get(name);
                assert_eq!(member(&map, name), want, "{len} members, {name:?}");
                assert_eq!(value.member(name), want, "{len} members, {name:?}");
                assert_eq!(map.member(name), want, "{len} members, {name:?}");
                assert_eq!(value.has(name), want.is_some(), "{len} members, {name:?}");
            }
        }
        // Not an object: nothing, as `Value::get` with a name.
        for v in [json!([1]), json!("k00"), json!(null)] {
            assert_eq!(v.member("k00"), None);
            assert!(!v.has("0"));
        }
    }
}

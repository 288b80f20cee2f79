//! JSON reading: the strict I-JSON reader with its span map, JSON Pointers,
//! and positions (byte offsets to `line:column`, the one unit every output
//! and every model that locates a finding uses).

pub mod pointer;
pub mod position;
pub mod strict;

/// The member `key` of the JSON object `map`, as `map.get(key)` gives it:
/// an object of at most 8 members (most schema objects) is searched
/// directly, which is cheaper than hashing the key (serde_json's ordered
/// map hashes with SipHash); a larger one through its index. For the
/// keyword lookups of the proofs, made at every schema node.
pub fn member<'a>(
    map: &'a serde_json::Map<String, serde_json::Value>,
    key: &str,
) -> Option<&'a serde_json::Value> {
    if map.len() <= 8 {
        map.iter().find_map(|(k, v)| (k == key).then_some(v))
    } else {
        map.get(key)
    }
}

//! The one shape of the run's content-addressed memos (issue 38): the
//! fixture memo ([`crate::fixtures::memo`]) and the proof memo
//! ([`crate::proof::memo`]) each key a [`Bounded`] by what decides their
//! answer and say why that key is exact. The proof memo and the
//! compiled-schema cache ([`crate::engine::cache`]) key a schema by its
//! content key ([`content_key`]); the fixture memo keys a fixture by the
//! SHA-256 of its bytes.
//!
//! **Bounded.** Each value is charged the bytes its owner's `charge` says;
//! the sum never passes the budget: when storing a value would pass it, the
//! memo is emptied first, and a value charged more than the whole budget
//! is not kept. A value is made outside the lock: two threads that miss on
//! one key at once both make it, and the first to store it keeps its (the
//! same) value.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;
use sha2::{Digest, Sha256};

/// How [`content_key`] reads a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numbers {
    /// As the `Value` holds it: an integer and a float are two numbers
    /// (`1` and `1.0`, whose `serde_json` texts differ), a float is its
    /// binary64 bits (`-0.0` is not `0.0`).
    AsHeld,
    /// As its binary64 value, which is what RFC 8785 writes (`1`, `1.0`
    /// and `1e0` are one number, `-0` is `0`; an integer past 2^53 is
    /// rounded to nearest, as the canonical writer rounds it).
    Binary64,
}

/// The content key of `value`: the SHA-256 of an encoding of it in
/// document order, and that encoding's length in bytes (a size measure for
/// a memo's charge, close to the length of the JSON text).
///
/// The encoding is prefix-free: one tag byte per value; a string, a member
/// name, an array and an object carry their length (LEB128) before their
/// bytes, items or members; a number is its tag and eight bytes, read as
/// `numbers` says; members and items come in the order the value holds
/// them. So two values have one key exactly when they are the same
/// document, in the same member order, with the same numbers as `numbers`
/// reads them (but for a SHA-256 collision).
///
/// Why hand-rolled: the keys were the RFC 8785 bytes beside the member
/// order, which sorts every object and writes every string escaped, only
/// to be hashed or compared; this writes nothing but the hash input (issue
/// 38: the schema cache's key was ≈ 2.6 % of a corpus run's CPU).
pub fn content_key(value: &Value, numbers: Numbers) -> ([u8; 32], usize) {
    let mut s = Stream {
        sha: Sha256::new(),
        buf: Vec::with_capacity(STREAM_BUF),
        len: 0,
    };
    s.value(value, numbers);
    s.flush();
    (s.sha.finalize().into(), s.len)
}

const STREAM_BUF: usize = 512;

/// [`content_key`]'s writer: small writes gathered before they are hashed.
struct Stream {
    sha: Sha256,
    buf: Vec<u8>,
    len: usize,
}

impl Stream {
    /// One byte (a tag, a LEB128 digit): no slice copy.
    #[inline]
    fn byte(&mut self, b: u8) {
        self.len += 1;
        if self.buf.len() >= STREAM_BUF {
            self.flush();
        }
        self.buf.push(b);
    }

    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.len += bytes.len();
        if self.buf.len() + bytes.len() > STREAM_BUF {
            self.flush();
            if bytes.len() > STREAM_BUF {
                self.sha.update(bytes);
                return;
            }
        }
        self.buf.extend_from_slice(bytes);
    }

    fn flush(&mut self) {
        self.sha.update(&self.buf);
        self.buf.clear();
    }

    /// A length or count, LEB128.
    fn count(&mut self, mut n: usize) {
        loop {
            let low = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                self.byte(low);
                return;
            }
            self.byte(low | 0x80);
        }
    }

    fn text(&mut self, s: &str) {
        self.count(s.len());
        self.put(s.as_bytes());
    }

    fn value(&mut self, v: &Value, numbers: Numbers) {
        match v {
            Value::Null => self.byte(0),
            Value::Bool(false) => self.byte(1),
            Value::Bool(true) => self.byte(2),
            Value::Number(n) => {
                let (tag, bits) = match (numbers, n.as_u64(), n.as_i64()) {
                    (Numbers::AsHeld, Some(u), _) => (3, u),
                    // Two's complement bits of a negative integer.
                    (Numbers::AsHeld, None, Some(i)) => (4, i as u64),
                    _ => {
                        let x = n.as_f64().unwrap_or(0.0);
                        let x = if numbers == Numbers::Binary64 && x == 0.0 {
                            0.0
                        } else {
                            x
                        };
                        (5, x.to_bits())
                    }
                };
                self.byte(tag);
                self.put(&bits.to_le_bytes());
            }
            Value::String(s) => {
                self.byte(6);
                self.text(s);
            }
            Value::Array(items) => {
                self.byte(7);
                self.count(items.len());
                for item in items {
                    self.value(item, numbers);
                }
            }
            Value::Object(map) => {
                self.byte(8);
                self.count(map.len());
                for (name, member) in map {
                    self.text(name);
                    self.value(member, numbers);
                }
            }
        }
    }
}

struct Inner<K, V> {
    map: HashMap<K, Arc<V>, ahash::RandomState>,
    charged: usize,
}

/// A memo of `V`s by `K`, shared between threads, within `budget` charged
/// bytes (see the module documentation).
pub struct Bounded<K, V> {
    budget: usize,
    inner: Mutex<Inner<K, V>>,
}

impl<K, V> std::fmt::Debug for Bounded<K, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bounded")
            .field("budget", &self.budget)
            .finish_non_exhaustive()
    }
}

impl<K: Hash + Eq, V> Bounded<K, V> {
    /// An empty memo of at most `budget` charged bytes.
    pub fn new(budget: usize) -> Self {
        Bounded {
            budget,
            inner: Mutex::new(Inner {
                map: HashMap::default(),
                charged: 0,
            }),
        }
    }

    /// How many values it holds now.
    pub fn len(&self) -> usize {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .map
            .len()
    }

    /// True when it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes charged for the values it holds now (never above its budget).
    pub fn charged(&self) -> usize {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .charged
    }

    /// The value of `key`: from the memo, or made by `make` and stored,
    /// charged `charge` of it.
    pub fn get_or_make(
        &self,
        key: K,
        make: impl FnOnce() -> V,
        charge: impl FnOnce(&V) -> usize,
    ) -> Arc<V> {
        if let Some(hit) = self
            .inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .map
            .get(&key)
        {
            return Arc::clone(hit);
        }
        let made = Arc::new(make());
        let cost = charge(&made);
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        if cost <= self.budget && !inner.map.contains_key(&key) {
            if inner.charged.saturating_add(cost) > self.budget {
                inner.map.clear();
                inner.charged = 0;
            }
            inner.charged += cost;
            inner.map.insert(key, Arc::clone(&made));
        }
        made
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(text: &str, numbers: Numbers) -> [u8; 32] {
        // `serde_json`'s reader: the strict one refuses `-0`.
        let v: Value = serde_json::from_str(text).unwrap();
        content_key(&v, numbers).0
    }

    /// One document is one key however it is spelled (whitespace, escapes;
    /// numbers as binary64 when asked: `10`, `1.0e1`, `-0` and `0`); near
    /// misses, each another key: another member order, an integer and a
    /// float as held, `-0.0` and `0.0` as held, one character moved
    /// between neighbouring strings or names, an empty array against a
    /// `null` item.
    #[test]
    fn content_keys_tell_documents_apart_exactly() {
        use Numbers::{AsHeld, Binary64};
        let a = r#"{"a":{"maximum":10,"x":"b"},"c":[1,"d"]}"#;
        let respelled = r#"{ "\u0061" : { "maximum" : 1.0e1, "x": "\u0062" }, "c": [ 1.0, "d" ] }"#;
        assert_eq!(key(a, Binary64), key(respelled, Binary64));
        assert_ne!(key(a, AsHeld), key(respelled, AsHeld));
        assert_eq!(key(a, AsHeld), key(&a.replace(' ', ""), AsHeld));
        assert_eq!(key("[-0.0]", Binary64), key("[0]", Binary64));
        assert_ne!(key("[-0.0]", AsHeld), key("[0.0]", AsHeld));
        assert_ne!(key("[1]", AsHeld), key("[1.0]", AsHeld));
        assert_ne!(
            key("[9007199254740993]", AsHeld),
            key("[9007199254740992]", AsHeld)
        );
        assert_eq!(
            key("[9007199254740993]", Binary64),
            key("[9007199254740992]", Binary64)
        );
        let reordered = r#"{"c":[1,"d"],"a":{"maximum":10,"x":"b"}}"#;
        assert_ne!(key(a, Binary64), key(reordered, Binary64));
        assert_ne!(key(r#"["ab","c"]"#, AsHeld), key(r#"["a","bc"]"#, AsHeld));
        assert_ne!(key(r#"{"ab":"c"}"#, AsHeld), key(r#"{"a":"bc"}"#, AsHeld));
        assert_ne!(key("[[]]", AsHeld), key("[null]", AsHeld));
        assert_ne!(key("[[],[]]", AsHeld), key("[[[]]]", AsHeld));
        // A long string passes the writer's buffer whole; its length is counted.
        let long = format!("[\"{}\"]", "x".repeat(3 * STREAM_BUF));
        let (k, len) = content_key(&serde_json::from_str(&long).unwrap(), AsHeld);
        assert_eq!(len, 1 + 1 + 1 + 2 + 3 * STREAM_BUF);
        assert_ne!(k, key(&long.replace("xx", "xy"), AsHeld));
    }

    /// A hit gives the stored value; the budget is never passed (the memo
    /// is emptied first); a value over the whole budget is made but not
    /// kept (near miss: one at the budget is kept).
    #[test]
    fn values_are_kept_within_the_budget() {
        let memo: Bounded<u32, String> = Bounded::new(10);
        let a = memo.get_or_make(1, || "aaaa".into(), String::len);
        let again = memo.get_or_make(1, || panic!("made twice"), String::len);
        assert!(Arc::ptr_eq(&a, &again));
        memo.get_or_make(2, || "bbbb".into(), String::len);
        assert_eq!((memo.len(), memo.charged()), (2, 8));
        memo.get_or_make(3, || "cccc".into(), String::len);
        assert_eq!((memo.len(), memo.charged()), (1, 4));
        let big = memo.get_or_make(4, || "x".repeat(11), String::len);
        assert_eq!(big.len(), 11);
        assert_eq!((memo.len(), memo.charged()), (1, 4));
        memo.get_or_make(5, || "y".repeat(10), String::len);
        assert_eq!((memo.len(), memo.charged()), (1, 10));
    }
}
